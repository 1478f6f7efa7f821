import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { z } from "zod";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { AcknowledgeForm, ResolveForm } from "@/components/admin/complaints/complaint-actions";
import {
  ComplaintStatusBadge,
  Deadline,
  missedDeadlines,
  OverdueBadge,
} from "@/components/admin/complaints/complaint-status";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { requestTime } from "@/lib/competitions/status";
import { getAdminComplaint } from "@/lib/data/admin-complaints";
import { DbError } from "@/lib/data/errors";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Complaint", robots: { index: false } };

async function loadComplaint(id: string) {
  if (!z.string().uuid().safeParse(id).success) notFound();
  try {
    return await getAdminComplaint(id);
  } catch (e) {
    if (e instanceof DbError && e.code === "complaint_not_found") notFound();
    throw e;
  }
}

/** One complaint: what the player wrote, the deadlines, and the acknowledgement and final answer. */
export default async function AdminComplaintPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAdmin(`/admin/complaints/${id}`);
  const c = await loadComplaint(id);
  const missed = missedDeadlines(c, requestTime());

  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/complaints" extra={[{ label: c.reference }]} />
        <PageHeader
          title={`Complaint ${c.reference}`}
          description={c.subject}
          actions={
            <div className="flex flex-wrap items-center gap-2">
              <ComplaintStatusBadge status={c.status} />
              {c.overdue ? <OverdueBadge /> : null}
            </div>
          }
        />
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>What the player told us</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3 text-sm">
            <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
              <dt className="font-medium">Player</dt>
              <dd>
                {c.name ?? "Deleted account"}
                {c.email ? ` (${c.email})` : ""}
              </dd>
              <dt className="font-medium">Sent</dt>
              <dd>{formatDateTime(c.created_at)}</dd>
              <dt className="font-medium">About</dt>
              <dd>{c.related_reference ?? "No reference given"}</dd>
            </dl>
            <p className="break-words whitespace-pre-line">{c.details}</p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Deadlines</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="font-medium">Acknowledge by</dt>
              <dd>
                <Deadline due={c.acknowledge_by} doneAt={c.acknowledged_at} missed={missed.acknowledge} />
              </dd>
              <dt className="font-medium">Final answer by</dt>
              <dd>
                <Deadline due={c.respond_by} doneAt={c.resolved_at} missed={missed.respond} />
              </dd>
              {c.handled_by_name ? (
                <>
                  <dt className="font-medium">Handled by</dt>
                  <dd>{c.handled_by_name}</dd>
                </>
              ) : null}
            </dl>
          </CardContent>
        </Card>
      </div>

      {c.status === "resolved" ? (
        <Card>
          <CardHeader>
            <CardTitle>Our final answer</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm break-words whitespace-pre-line">{c.response}</p>
          </CardContent>
        </Card>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          {c.status === "received" ? (
            <Card>
              <CardHeader>
                <CardTitle>Acknowledge</CardTitle>
              </CardHeader>
              <CardContent>
                <AcknowledgeForm id={c.id} reference={c.reference} />
              </CardContent>
            </Card>
          ) : null}
          <Card>
            <CardHeader>
              <CardTitle>Resolve</CardTitle>
            </CardHeader>
            <CardContent>
              <ResolveForm id={c.id} reference={c.reference} />
            </CardContent>
          </Card>
        </div>
      )}
    </section>
  );
}
