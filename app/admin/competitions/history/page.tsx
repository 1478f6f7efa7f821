import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { History } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { FigureList } from "@/components/admin/competitions/figure-list";
import { StateBadge } from "@/components/admin/competitions/states";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { adminCompetitionHistory, type HistoryRow } from "@/lib/data/admin-competitions";
import { formatDateTime, formatGBP } from "@/lib/format";
import { LABELS } from "@/lib/labels";

export const metadata: Metadata = { title: "Competition history", robots: { index: false } };

function prizeCostNote(row: HistoryRow): string {
  if (row.status !== "drawn") return "No prize";
  if (row.prize_choice) return LABELS.prize_choice[row.prize_choice];
  return "Prize value (not claimed yet)";
}

// Finished competitions with revenue and prize cost, every figure worked out in SQL (admin_competition_history).
export default async function AdminCompetitionHistoryPage() {
  await requireAdmin("/admin/competitions/history");
  const { rows, totals } = await adminCompetitionHistory();
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/competitions/history" />
        <PageHeader
          title="Competition history"
          description="Drawn, closed and cancelled competitions: revenue from tickets, refunds, and what the prize cost (its value, or the cash alternative when the winner chose cash)."
        />
      </div>
      {rows.length === 0 ? (
        <EmptyState icon={<History />} title="No competition has finished yet." />
      ) : (
        <>
          <FigureList
            className="lg:grid-cols-3"
            items={[
              ["Finished competitions", totals.competitions.toLocaleString("en-GB")],
              ["Revenue", formatGBP(totals.revenue)],
              ["Refunded", formatGBP(totals.refunded_total)],
              ["Prize cost", formatGBP(totals.prize_cost)],
              ["Owed to charity partners", formatGBP(totals.charity_owed)],
              ["Net (revenue − prize cost − charity)", formatGBP(totals.net)],
            ]}
          />
          <DataTable
            cards
            caption="Finished competitions"
            captionHidden
            rows={rows}
            rowKey={(row) => row.id}
            columns={[
              {
                header: "Competition",
                cell: (row) => (
                  <Link
                    href={`/admin/competitions/${row.id}`}
                    className="font-medium text-primary-text underline-offset-4 hover:underline"
                  >
                    {row.title}
                  </Link>
                ),
              },
              { header: "State", cell: (row) => <StateBadge state={row.status} /> },
              { header: "Finished", className: "whitespace-nowrap", cell: (row) => formatDateTime(row.finished_at) },
              {
                header: "Tickets (online + postal)",
                numeric: true,
                cell: (row) =>
                  `${row.tickets_sold.toLocaleString("en-GB")} + ${row.postal_tickets.toLocaleString("en-GB")}`,
              },
              { header: "Revenue", numeric: true, cell: (row) => formatGBP(row.revenue) },
              { header: "Refunded", numeric: true, cell: (row) => formatGBP(row.refunded_total) },
              {
                header: "Prize cost",
                numeric: true,
                cell: (row) => (
                  <>
                    {formatGBP(row.prize_cost)}
                    <span className="block text-xs text-muted-foreground">{prizeCostNote(row)}</span>
                  </>
                ),
              },
              { header: "Charity", numeric: true, cell: (row) => formatGBP(row.charity_owed) },
              { header: "Net", numeric: true, cell: (row) => formatGBP(row.net) },
              {
                header: "Winner",
                cell: (row) =>
                  row.draw_id ? (
                    <Link
                      href={`/winners/${row.draw_id}`}
                      className="text-primary-text underline-offset-4 hover:underline"
                    >
                      {row.winner_display_name}
                    </Link>
                  ) : (
                    "None"
                  ),
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
