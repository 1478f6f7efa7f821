import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { DailyChart } from "@/components/admin/daily-chart";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { getAdminDashboard } from "@/lib/data/admin-console";
import { formatDateTime, formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Admin dashboard", robots: { index: false } };

function Figure({
  label,
  value,
  note,
  href,
  linkLabel,
}: {
  label: string;
  value: number;
  note?: string;
  href: string;
  linkLabel: string;
}) {
  return (
    <Card className="flex flex-col gap-1 p-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-3xl font-bold tabular-nums">{value.toLocaleString("en-GB")}</dd>
      {note ? <dd className="text-sm text-muted-foreground">{note}</dd> : null}
      <dd className="mt-auto pt-2 text-sm">
        <Link href={href} className="font-medium text-primary-text underline-offset-4 hover:underline">
          {linkLabel}
        </Link>
      </dd>
    </Card>
  );
}

export default async function AdminPage() {
  const admin = await requireAdmin("/admin");
  const dashboard = await getAdminDashboard();
  const { counts, days, totals } = dashboard;
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin" />
        <PageHeader
          title="Admin dashboard"
          description={`Signed in as ${admin.name} (${admin.role === "super_admin" ? "super admin" : "admin"}). Figures as of ${formatDateTime(dashboard.generated_at)}.`}
        />
      </div>
      <h2 className="sr-only">At a glance</h2>
      <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        <Figure
          label="Players"
          value={counts.players}
          note={`${counts.approved_players.toLocaleString("en-GB")} approved`}
          href="/admin/users"
          linkLabel="Users"
        />
        <Figure
          label="Pending approvals"
          value={counts.pending_approvals}
          href="/admin/approvals"
          linkLabel="Approval queue"
        />
        <Figure
          label="Live competitions"
          value={counts.live_competitions}
          note={`${counts.opening_soon.toLocaleString("en-GB")} opening soon · ${counts.awaiting_draw.toLocaleString("en-GB")} awaiting the draw`}
          href="/admin/competitions"
          linkLabel="Competitions"
        />
        <Figure
          label="Open complaints"
          value={counts.open_complaints}
          note={`${counts.overdue_complaints.toLocaleString("en-GB")} past a deadline`}
          href="/admin/complaints"
          linkLabel="Complaints queue"
        />
        <Figure
          label="Flagged for review"
          value={counts.flagged_players}
          note="players with a protection flag awaiting review"
          href="/admin/protection"
          linkLabel="Review queue"
        />
      </dl>
      <div className="grid items-start gap-4 xl:grid-cols-3">
        <DailyChart id="signups" title="Sign-ups" days={days} series="signups" total={totals.signups} />
        <DailyChart id="tickets" title="Tickets sold" days={days} series="tickets" total={totals.tickets} />
        <DailyChart
          id="credit"
          title="Credit sold"
          days={days}
          series="credit_sold"
          total={totals.credit_sold}
          format={formatGBP}
        />
      </div>
      <p className="text-sm text-muted-foreground">
        Days are UK days, today included. Tickets sold are paid tickets on the day they were bought, refunded ones
        included; credit sold is money paid for credit, without bonuses.
      </p>
    </section>
  );
}
