import { Link } from "@/components/ui/link";
import { FigureList } from "@/components/admin/competitions/figure-list";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { UserSpins } from "@/lib/data/admin-spinner";
import { formatDateTime, formatGBP } from "@/lib/format";
import { formatPrize } from "@/lib/spinner/format";

/** A player's LabSpinner record on /admin/users/{id}: spin credits as SQL counts them, last spins, postal grants. */
export function UserSpinsSection({ spins: { credits, spins, grants } }: { spins: UserSpins }) {
  return (
    <section aria-labelledby="spins-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="spins-heading" className="text-lg font-semibold">
          LabSpinner
        </h2>
        <Link href="/admin/labspinner#postal-heading" className="text-sm underline underline-offset-4">
          Record a postal request
        </Link>
      </div>
      <FigureList
        items={[
          ["Spin credits to use", String(credits.available)],
          [
            "Earned from tickets",
            `${credits.earned} (${formatGBP(credits.ticket_spend)} spent; ${formatGBP(credits.to_next)} to the next)`,
          ],
          ["From postal requests", String(credits.granted)],
          ["Spins made", String(credits.used)],
        ]}
      />
      {spins.length === 0 ? (
        <p className="text-muted-foreground">No spins yet.</p>
      ) : (
        <Table cards>
          <TableCaption visuallyHidden>Spins, newest first (the last 20)</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead>Segment</TableHead>
              <TableHead className="text-right">Prize</TableHead>
              <TableHead className="text-right">Wheel version</TableHead>
              <TableHead className="text-right">Nonce</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {spins.map((spin) => (
              <TableRow key={spin.id}>
                <TableCell label="When" className="whitespace-nowrap">
                  <time dateTime={spin.created_at}>{formatDateTime(spin.created_at)}</time>
                </TableCell>
                <TableCell label="Segment">
                  {spin.segment_position}. {spin.label}
                </TableCell>
                <TableCell label="Prize" className="text-right tabular-nums">
                  {formatPrize(spin.prize_credits)}
                </TableCell>
                <TableCell label="Wheel version" className="text-right tabular-nums">
                  {spin.wheel_id}
                </TableCell>
                <TableCell label="Nonce" className="text-right tabular-nums">
                  {spin.nonce}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {grants.length === 0 ? (
        <p className="text-muted-foreground">No postal requests recorded.</p>
      ) : (
        <Table cards>
          <TableCaption visuallyHidden>Postal requests, newest first (the last 20)</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Recorded</TableHead>
              <TableHead>Reference</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {grants.map((grant) => (
              <TableRow key={grant.id}>
                <TableCell label="Recorded" className="whitespace-nowrap">
                  <time dateTime={grant.created_at}>{formatDateTime(grant.created_at)}</time>
                </TableCell>
                <TableCell label="Reference" className="break-words">
                  {grant.reference}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}
