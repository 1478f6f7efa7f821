import type { Metadata } from "next";
import { DonationList } from "@/components/charities/donation-list";
import { Link } from "@/components/ui/link";
import { charityNamed, charityTerms, owedText } from "@/lib/charities/wording";
import { enumLabel } from "@/lib/labels";
import { listCharities } from "@/lib/data/charities";
import { formatPounds } from "@/lib/format";

export const metadata: Metadata = {
  title: "Charity partners",
  description:
    "Every charity our competitions support: what each competition promised, what it owes once drawn, what has been paid and the proof of each payment.",
  alternates: { canonical: "/charities" },
};

// Static like the other public pages, and expired at once when a competition or a donation changes
// (lib/cache/public-pages.ts).
export const revalidate = 2;

export default async function CharitiesPage() {
  const charities = await listCharities();
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight">Charity partners</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Some competitions support a charity: a share of their ticket sales, or a fixed sum, stated before anyone
          enters. Once a competition is drawn, what it owes is worked out from its sales, and every payment is listed
          here with its proof.
        </p>
      </header>
      {charities.length === 0 ? (
        <p className="mt-10 text-muted-foreground">No competition has named a charity partner yet.</p>
      ) : (
        charities.map((charity) => (
          <section
            key={charity.registered_number}
            aria-labelledby={`charity-${charity.registered_number}`}
            className="mt-10 rounded-2xl border border-border p-5"
          >
            <h2 id={`charity-${charity.registered_number}`} className="text-2xl font-bold">
              {charity.name}
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">
              Registered charity {charity.registered_number}
              {charity.website ? (
                <>
                  {" · "}
                  <a href={charity.website} rel="noopener noreferrer" className="underline underline-offset-4">
                    Website
                  </a>
                </>
              ) : null}
            </p>
            <dl className="mt-4 grid grid-cols-2 gap-3">
              <div className="rounded-xl border border-border p-3">
                <dt className="text-sm text-muted-foreground">Owed by the competitions drawn</dt>
                <dd className="mt-1 text-lg font-semibold tabular-nums">{formatPounds(charity.owed)}</dd>
              </div>
              <div className="rounded-xl border border-border p-3">
                <dt className="text-sm text-muted-foreground">Paid</dt>
                <dd className="mt-1 text-lg font-semibold tabular-nums">{formatPounds(charity.paid)}</dd>
              </div>
            </dl>
            <ul className="mt-4 space-y-6">
              {charity.competitions.map((c) => (
                <li key={c.slug}>
                  <h3 className="font-semibold">
                    <Link href={`/competitions/${c.slug}`} className="underline underline-offset-4">
                      {c.title}
                    </Link>{" "}
                    <span className="text-sm font-normal text-muted-foreground">
                      ({enumLabel("competition_status", c.status)})
                    </span>
                  </h3>
                  <p className="mt-1 text-sm">
                    {charityNamed(charity)} receives {charityTerms(c)}. Owed: {owedText(c.owed, c.status)}; paid:{" "}
                    {formatPounds(c.paid)}.
                  </p>
                  <DonationList donations={c.donations} label={`Payments for ${c.title}`} />
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
