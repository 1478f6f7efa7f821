import { Link } from "@/components/ui/link";
import { FigureList } from "@/components/admin/competitions/figure-list";
import { DataTable } from "@/components/ui/data-table";
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
      <DataTable
        cards
        caption="Spins, newest first (the last 20)"
        captionHidden
        rows={spins}
        rowKey={(spin) => spin.id}
        empty={<p className="text-muted-foreground">No spins yet.</p>}
        columns={[
          {
            header: "When",
            className: "whitespace-nowrap",
            cell: (spin) => <time dateTime={spin.created_at}>{formatDateTime(spin.created_at)}</time>,
          },
          { header: "Segment", cell: (spin) => `${spin.segment_position}. ${spin.label}` },
          { header: "Prize", numeric: true, cell: (spin) => formatPrize(spin.prize_credits) },
          { header: "Wheel version", numeric: true, cell: (spin) => spin.wheel_id },
          { header: "Nonce", numeric: true, cell: (spin) => spin.nonce },
        ]}
      />
      <DataTable
        cards
        caption="Postal requests, newest first (the last 20)"
        captionHidden
        rows={grants}
        rowKey={(grant) => grant.id}
        empty={<p className="text-muted-foreground">No postal requests recorded.</p>}
        columns={[
          {
            header: "Recorded",
            className: "whitespace-nowrap",
            cell: (grant) => <time dateTime={grant.created_at}>{formatDateTime(grant.created_at)}</time>,
          },
          { header: "Reference", className: "break-words", cell: (grant) => grant.reference },
        ]}
      />
    </section>
  );
}
