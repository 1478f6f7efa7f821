import { oddsText } from "@/lib/competitions/status";
import { plural } from "@/lib/competitions/ticket-numbers";
import type { Competition } from "@/lib/data/competitions";
import { formatGBP } from "@/lib/format";
import { cn } from "@/lib/utils";
import { PrizeValue } from "./prize-value";

/** Prize value (with any cash alternative), ticket price, odds and the per-person cap, as four tiles. */
export function CompetitionFacts({ competition: c }: { competition: Competition }) {
  return (
    <dl className="grid grid-cols-2 gap-4">
      {/* The prize and its cash alternative take the whole row on a phone: half of it is too narrow for both. */}
      <Fact term="Prize value" emphasis className="col-span-2 sm:col-span-1">
        <PrizeValue competition={c} cashClassName="text-base font-semibold" />
      </Fact>
      <Fact term="Ticket price" emphasis>
        {formatGBP(c.ticket_price)}
      </Fact>
      <Fact term="Odds">{oddsText(c)}</Fact>
      <Fact term="Per person">Up to {plural(c.max_tickets_per_user, "ticket")}, online and postal together</Fact>
    </dl>
  );
}

function Fact({
  term,
  emphasis = false,
  className,
  children,
}: {
  term: string;
  emphasis?: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("min-w-0 rounded-xl border border-border p-4", className)}>
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className={emphasis ? "mt-1 text-2xl font-bold" : "mt-1 font-semibold"}>{children}</dd>
    </div>
  );
}
