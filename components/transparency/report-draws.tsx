import { Link } from "@/components/ui/link";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ReportDraw } from "@/lib/data/transparency";
import { formatCount, formatDate, formatGBP, formatOdds } from "@/lib/format";
import { PRIZE_STATUS } from "@/lib/prizes/steps";

/** The draws behind a month's figures: each with its tickets, prize, instant wins and browser checks so far. */
export function ReportDraws({ id, month, draws }: { id: string; month: string; draws: ReportDraw[] }) {
  if (draws.length === 0) {
    return (
      <p id={id} className="mt-4 text-sm text-muted-foreground">
        No competition was drawn in {month}.
      </p>
    );
  }
  return (
    <div id={id} className="mt-4">
      <Table cards>
        <TableCaption>Competitions drawn in {month}</TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Competition</TableHead>
            <TableHead>Drawn</TableHead>
            <TableHead className="text-right">Tickets (postal)</TableHead>
            <TableHead>Odds per ticket</TableHead>
            <TableHead>Prize</TableHead>
            <TableHead className="text-right">Instant wins won</TableHead>
            <TableHead className="text-right">Browser checks (all time)</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {draws.map((d) => (
            <TableRow key={d.draw_id}>
              <TableCell className="font-medium">
                <Link href={`/winners/${d.draw_id}`} className="underline underline-offset-4">
                  {d.title}
                </Link>
              </TableCell>
              <TableCell label="Drawn">
                <time dateTime={d.drawn_at}>{formatDate(d.drawn_at)}</time>
              </TableCell>
              <TableCell label="Tickets (postal)" className="text-right tabular-nums">
                {formatCount(d.ticket_count)} ({formatCount(d.postal_tickets)})
              </TableCell>
              <TableCell label="Odds per ticket">{formatOdds(d.ticket_count)}</TableCell>
              <TableCell label="Prize">
                {formatGBP(d.prize_value)}, {PRIZE_STATUS[d.prize_status].label.toLowerCase()}
              </TableCell>
              <TableCell label="Instant wins won" className="text-right tabular-nums">
                {formatCount(d.instant_wins_won)} of {formatCount(d.instant_wins_published)}
              </TableCell>
              <TableCell label="Browser checks (all time)" className="text-right tabular-nums">
                {formatCount(d.checks)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
