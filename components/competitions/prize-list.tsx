import { Link } from "@/components/ui/link";
import { Medal } from "lucide-react";
import type { CompetitionPrize } from "@/lib/data/competition-prizes";
import { ordinal } from "@/lib/format";
import { formatPounds, formatWinner } from "@/lib/format";

/**
 * A competition's prizes in order, when it has more than one: what each is and is worth before entry, and once
 * drawn each one's winning ticket and winner, with its own verification page.
 */
export function PrizeList({ prizes, drawn }: { prizes: CompetitionPrize[]; drawn: boolean }) {
  return (
    <section aria-labelledby="prizes-title" className="rounded-xl border border-border p-4">
      <h2 id="prizes-title" className="flex items-center gap-2 font-semibold">
        <Medal aria-hidden className="size-5 text-primary-text" />
        {prizes.length} prizes, drawn in order from one draw
      </h2>
      <ol className="mt-3 flex flex-col gap-2">
        {prizes.map((p) => (
          <li key={p.prize_position} className="text-sm">
            <span className="font-semibold">{ordinal(p.prize_position)} prize:</span> {p.description}{" "}
            <span className="text-muted-foreground">
              ({formatPounds(p.value)}
              {p.cash_alternative !== null ? `, or ${formatPounds(p.cash_alternative)} cash` : ""})
            </span>
            {p.draw_id && p.winning_number !== null && p.winner_display_name ? (
              <span className="block">
                Ticket #{p.winning_number} won:{" "}
                {formatWinner({ winner_display_name: p.winner_display_name, winner_town: p.winner_town })}.{" "}
                <Link
                  href={`/winners/${p.draw_id}`}
                  className="font-medium text-primary-text underline underline-offset-4"
                >
                  Verify the {ordinal(p.prize_position)} prize
                </Link>
              </span>
            ) : drawn ? (
              <span className="block text-muted-foreground">Not won: there were fewer tickets than prizes.</span>
            ) : null}
          </li>
        ))}
      </ol>
      <p className="mt-2 text-xs text-muted-foreground">
        One ticket wins at most one prize; postal entries take part in every prize.
      </p>
    </section>
  );
}
