import { HeartHandshake } from "lucide-react";
import { Link } from "@/components/ui/link";
import { charityNamed, charityTerms, owedText } from "@/lib/charities/wording";
import type { CompetitionCharity } from "@/lib/data/charities";
import { formatPounds } from "@/lib/format";
import { DonationList } from "./donation-list";

export const CHARITY_SECTION_ID = "charity";

/** One line near the top of a competition page, before any way to enter: who the competition supports and how. */
export function CharityLine({ charity }: { charity: CompetitionCharity }) {
  return (
    <p className="flex items-start gap-3 rounded-xl border border-border p-4">
      <HeartHandshake aria-hidden className="mt-0.5 size-5 shrink-0 text-primary-text" />
      <span>
        Supports <strong>{charityNamed(charity)}</strong>: {charityTerms(charity)}.{" "}
        <Link href={`#${CHARITY_SECTION_ID}`} className="underline underline-offset-4">
          What it has received
        </Link>
      </span>
    </p>
  );
}

/** The competition's charity partner in full: the terms, and once drawn what is owed, paid and each payment's proof. */
export function CharityPartner({ charity, status }: { charity: CompetitionCharity; status: string }) {
  return (
    <section id={CHARITY_SECTION_ID} aria-labelledby="charity-title" className="scroll-mt-24">
      <h2 id="charity-title" className="text-2xl font-bold tracking-tight">
        Charity partner
      </h2>
      <p className="mt-3">
        This competition supports {charityNamed(charity)}
        {charity.website ? (
          <>
            {" "}
            (
            <a href={charity.website} rel="noopener noreferrer" className="underline underline-offset-4">
              its website
            </a>
            )
          </>
        ) : null}
        . The charity receives {charityTerms(charity)}. This is part of the competition&apos;s terms.
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3">
        <div className="rounded-xl border border-border p-3">
          <dt className="text-sm text-muted-foreground">Owed to the charity</dt>
          <dd className="mt-1 font-semibold tabular-nums">{owedText(charity.owed, status)}</dd>
        </div>
        <div className="rounded-xl border border-border p-3">
          <dt className="text-sm text-muted-foreground">Paid so far</dt>
          <dd className="mt-1 font-semibold tabular-nums">{formatPounds(charity.paid)}</dd>
        </div>
      </dl>
      <h3 className="mt-4 font-semibold">Payments to the charity</h3>
      <DonationList donations={charity.donations} label={`Payments to ${charity.name}`} />
      <p className="mt-3 text-sm">
        <Link href="/charities" className="underline underline-offset-4">
          Every charity we support, and what each has received
        </Link>
      </p>
    </section>
  );
}
