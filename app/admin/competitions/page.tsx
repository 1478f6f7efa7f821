import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Plus, Trophy } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { ADMIN_STATES, adminState, isAdminState, StateBadge } from "@/components/admin/competitions/states";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { requestTime } from "@/lib/competitions/status";
import { adminListCompetitions } from "@/lib/data/admin-competitions";
import { formatDateTime, formatGBP } from "@/lib/format";
import { cn } from "@/lib/utils";

export const metadata: Metadata = { title: "Competitions", robots: { index: false } };

export default async function AdminCompetitionsPage({ searchParams }: { searchParams: Promise<{ state?: string }> }) {
  await requireAdmin("/admin/competitions");
  const [competitions, { state: asked }] = await Promise.all([adminListCompetitions(), searchParams]);
  const state = isAdminState(asked) ? asked : null;
  const now = requestTime();
  const rows = competitions.map((c) => ({ ...c, state: adminState(c, now) }));
  const shown = state ? rows.filter((c) => c.state === state) : rows;
  const count = (key: string) => rows.filter((c) => c.state === key).length;
  const filterLabel = state ? ADMIN_STATES.find((s) => s.key === state)!.label : "All";

  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/competitions" />
        <PageHeader
          title="Competitions"
          description="Every competition by state: drafts, live, awaiting the draw, drawn, closed and cancelled."
          actions={
            <Link href="/admin/competitions/new" className={buttonClasses("primary", "md")}>
              <Plus aria-hidden />
              New competition
            </Link>
          }
        />
      </div>

      <nav aria-label="Filter by state">
        <ul className="flex flex-wrap gap-2">
          {[{ key: null, label: "All", n: rows.length }, ...ADMIN_STATES.map((s) => ({ ...s, n: count(s.key) }))].map(
            (s) => {
              const current = s.key === state;
              return (
                <li key={s.key ?? "all"}>
                  <Link
                    href={s.key ? `/admin/competitions?state=${s.key}` : "/admin/competitions"}
                    aria-current={current ? "page" : undefined}
                    className={cn(
                      "inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm font-medium",
                      current
                        ? "border-primary bg-primary text-primary-foreground"
                        : "border-border bg-background hover:bg-accent hover:text-accent-foreground",
                    )}
                  >
                    {s.label}
                    <span className="tabular-nums">({s.n})</span>
                  </Link>
                </li>
              );
            },
          )}
        </ul>
      </nav>

      <DataTable
        cards
        caption={`Competitions: ${filterLabel}`}
        captionHidden
        rows={shown}
        rowKey={(c) => c.id}
        empty={
          <EmptyState
            icon={<Trophy />}
            title={state ? `No competitions: ${filterLabel.toLowerCase()}.` : "No competitions yet."}
          />
        }
        columns={[
          {
            header: "Competition",
            cell: (c) => (
              <>
                <Link
                  href={`/admin/competitions/${c.id}`}
                  className="font-medium text-primary-text underline-offset-4 hover:underline"
                >
                  {c.title}
                </Link>
                <span className="block text-xs text-muted-foreground">{c.slug}</span>
              </>
            ),
          },
          { header: "State", cell: (c) => <StateBadge state={c.state} /> },
          {
            header: "Sold / total",
            numeric: true,
            cell: (c) => `${c.tickets_sold.toLocaleString("en-GB")} / ${c.total_tickets.toLocaleString("en-GB")}`,
          },
          { header: "Postal tickets", numeric: true, cell: (c) => c.postal_tickets.toLocaleString("en-GB") },
          { header: "Opens", className: "whitespace-nowrap", cell: (c) => formatDateTime(c.opens_at) },
          { header: "Closes", className: "whitespace-nowrap", cell: (c) => formatDateTime(c.closes_at) },
          { header: "Draw", className: "whitespace-nowrap", cell: (c) => formatDateTime(c.draw_at) },
          { header: "Revenue", numeric: true, cell: (c) => formatGBP(c.revenue) },
        ]}
      />
    </section>
  );
}
