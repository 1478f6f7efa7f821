import type { CharityDonation } from "@/lib/data/charities";
import { formatDate, formatPounds } from "@/lib/format";

/** Each payment to a charity, oldest first, with its reference and a link to its proof. */
export function DonationList({ donations, label }: { donations: CharityDonation[]; label: string }) {
  if (donations.length === 0) return <p className="mt-2 text-sm text-muted-foreground">No payment recorded yet.</p>;
  return (
    <ul aria-label={label} className="mt-2 divide-y divide-border rounded-xl border border-border">
      {donations.map((d) => (
        <li key={d.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 p-3 text-sm">
          <span className="font-semibold tabular-nums">{formatPounds(d.amount)}</span>
          <span className="text-muted-foreground">
            {formatDate(d.donated_on)}, reference {d.reference}
          </span>
          {/* A stored file, not a page: a plain link, so the browser opens it rather than the router. */}
          <a href={d.proof_path} className="font-medium text-primary-text underline underline-offset-4">
            Proof of payment
            <span className="sr-only">
              : {formatPounds(d.amount)} on {formatDate(d.donated_on)}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
