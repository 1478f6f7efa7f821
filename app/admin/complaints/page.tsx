import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { MessageSquareText } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import {
  COMPLAINT_STATUSES,
  ComplaintStatusBadge,
  Deadline,
  missedDeadlines,
  OverdueBadge,
} from "@/components/admin/complaints/complaint-status";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { requestTime } from "@/lib/competitions/status";
import { complaintStatusSchema, listAdminComplaints } from "@/lib/data/admin-complaints";
import { formatDateTime } from "@/lib/format";
import { cn } from "@/lib/utils";

export const metadata: Metadata = { title: "Complaints", robots: { index: false } };

/** The complaints queue (code of practice 1.2): open ones first by answer deadline, overdue ones marked. */
export default async function AdminComplaintsPage({ searchParams }: { searchParams: Promise<{ status?: string }> }) {
  await requireAdmin("/admin/complaints");
  const params = await searchParams;
  // An unknown status in the address shows every complaint rather than an error page.
  const parsed = complaintStatusSchema.safeParse(params.status);
  const status = parsed.success ? parsed.data : null;
  const complaints = await listAdminComplaints(status);
  const now = requestTime();
  const overdue = complaints.filter((c) => c.overdue).length;

  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/complaints" />
        <PageHeader
          title="Complaints"
          description="Acknowledge each complaint within 2 working days and send the final answer within 28 days."
        />
      </div>

      <nav aria-label="Filter by status">
        <ul className="flex flex-wrap gap-2">
          {[{ key: null, label: "All" }, ...COMPLAINT_STATUSES].map((s) => {
            const current = s.key === status;
            return (
              <li key={s.key ?? "all"}>
                <Link
                  href={s.key ? `/admin/complaints?status=${s.key}` : "/admin/complaints"}
                  aria-current={current ? "page" : undefined}
                  className={cn(
                    "inline-flex items-center rounded-full border px-3 py-1 text-sm font-medium",
                    current
                      ? "border-primary bg-primary text-primary-foreground"
                      : "border-border bg-background hover:bg-accent hover:text-accent-foreground",
                  )}
                >
                  {s.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      {params.status !== undefined && !parsed.success ? (
        <p className="text-sm text-muted-foreground">Unknown status “{params.status}”: showing every complaint.</p>
      ) : null}

      {complaints.length === 0 ? (
        <EmptyState
          icon={<MessageSquareText />}
          title={status ? "No complaints with this status." : "No complaints yet."}
        />
      ) : (
        <>
          {overdue > 0 ? (
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <OverdueBadge>{overdue} overdue</OverdueBadge>
              <span className="text-muted-foreground">
                Past a deadline and not yet resolved; listed first among open complaints by answer deadline.
              </span>
            </p>
          ) : null}
          <DataTable
            cards
            caption={`Complaints${status ? ` (${status})` : ""}, open ones first by answer deadline`}
            captionHidden
            rows={complaints.map((c) => ({ ...c, missed: missedDeadlines(c, now) }))}
            rowKey={(c) => c.id}
            rowClassName={(c) => (c.overdue ? "border-l-4 border-l-destructive" : undefined)}
            columns={[
              {
                header: "Reference",
                className: (c) => (c.overdue ? "pl-2" : undefined),
                cell: (c) => (
                  <>
                    <Link
                      href={`/admin/complaints/${c.id}`}
                      className="font-mono font-medium text-primary-text underline-offset-4 hover:underline"
                    >
                      {c.reference}
                    </Link>
                    <span className="block text-xs text-muted-foreground">{formatDateTime(c.created_at)}</span>
                  </>
                ),
              },
              {
                header: "Player",
                cell: (c) => (
                  <>
                    {c.name ?? "Deleted account"}
                    {c.email ? <span className="block text-xs text-muted-foreground">{c.email}</span> : null}
                  </>
                ),
              },
              { header: "Subject", className: "max-w-xs break-words", cell: (c) => c.subject },
              { header: "Status", cell: (c) => <ComplaintStatusBadge status={c.status} /> },
              {
                header: "Acknowledge by",
                cell: (c) => (
                  <Deadline due={c.acknowledge_by} doneAt={c.acknowledged_at} missed={c.missed.acknowledge} />
                ),
              },
              {
                header: "Final answer by",
                cell: (c) => <Deadline due={c.respond_by} doneAt={c.resolved_at} missed={c.missed.respond} />,
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
