import type { Competition } from "@/lib/data/competitions";
import { formatPounds } from "@/lib/format";

/** The prize in the operator's words: its description, value, any cash alternative and the competition's longer text. */
export function PrizeDetails({ competition: c }: { competition: Competition }) {
  return (
    <section aria-labelledby="prize-title">
      <h2 id="prize-title" className="text-2xl font-bold tracking-tight">
        The prize
      </h2>
      <p className="mt-3 font-medium whitespace-pre-line">{c.prize_description}</p>
      <p className="mt-2 text-muted-foreground">
        Retail value {formatPounds(c.prize_value)}.
        {c.cash_alternative !== null
          ? ` The winner may take ${formatPounds(c.cash_alternative)} cash instead of the prize.`
          : null}
      </p>
      {c.description
        .split(/\n{2,}/)
        .filter(Boolean)
        .map((para, i) => (
          <p key={i} className="mt-4 whitespace-pre-line">
            {para}
          </p>
        ))}
    </section>
  );
}
