import { formatPounds } from "@/lib/format";

// How the site words a charity partnership, the same on the competition page, the charities page and the admin pages.

/** The charity and how it is registered: "Shelter (registered charity 263710)". */
export const charityNamed = (c: { name: string; registered_number: string }) =>
  `${c.name} (registered charity ${c.registered_number})`;

const percent = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 });

/** What the charity gets, as a term of entry. */
export function charityTerms(c: { revenue_percent: number | null; fixed_amount: number | null }): string {
  if (c.fixed_amount !== null)
    return `${formatPounds(c.fixed_amount)} once the competition is drawn, however many tickets are sold`;
  return `${percent.format(c.revenue_percent ?? 0)}% of the ticket sales (paid entries, less any refunded)`;
}

/** What is owed, in words: SQL says null until the draw, and 0 when nothing is owed. */
export function owedText(owed: number | null, status: string): string {
  if (owed === null) return "Worked out at the draw";
  if (owed === 0 && status === "cancelled") return "Nothing: the competition was cancelled and every entry refunded";
  return formatPounds(owed);
}
