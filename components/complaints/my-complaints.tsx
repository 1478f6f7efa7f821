import { MessageSquareText } from "lucide-react";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import type { ComplaintStatus, MyComplaint } from "@/lib/data/complaints";
import { formatDate, formatDateTime } from "@/lib/format";
import { LABELS } from "@/lib/labels";

const statusTone: Record<ComplaintStatus, BadgeVariant> = {
  received: "warning",
  acknowledged: "info",
  resolved: "success",
};

/** The player's complaints, each with its reference, status, deadlines and our answer once given. */
export function MyComplaints({ complaints }: { complaints: MyComplaint[] }) {
  if (complaints.length === 0) {
    return <EmptyState icon={<MessageSquareText />} title="You have not made any complaints" />;
  }
  return (
    <ul className="flex flex-col gap-4">
      {complaints.map((c) => (
        <li key={c.id}>
          <ComplaintItem complaint={c} />
        </li>
      ))}
    </ul>
  );
}

function ComplaintItem({ complaint: c }: { complaint: MyComplaint }) {
  const headingId = `complaint-${c.id}`;
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-border bg-card p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-semibold break-words">
            {c.reference}: {c.subject}
          </h3>
          <p className="text-sm text-muted-foreground">Sent {formatDateTime(c.created_at)}</p>
        </div>
        <Badge variant={statusTone[c.status]} size="md">
          <span className="sr-only">Status: </span>
          {LABELS.complaint_status[c.status]}
        </Badge>
      </div>
      {c.related_reference ? (
        <p className="text-sm">
          <span className="text-muted-foreground">About: </span>
          {c.related_reference}
        </p>
      ) : null}
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">What you told us</summary>
        <p className="mt-2 whitespace-pre-line">{c.details}</p>
      </details>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Acknowledged</dt>
          <dd>
            {c.acknowledged_at ? formatDate(c.acknowledged_at) : `Not yet (we will by ${formatDate(c.acknowledge_by)})`}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Final answer</dt>
          <dd>{c.resolved_at ? formatDate(c.resolved_at) : `Due by ${formatDate(c.respond_by)}`}</dd>
        </div>
      </dl>
      {c.response ? (
        <div className="text-sm">
          <p className="font-medium">Our answer</p>
          <p className="whitespace-pre-line">{c.response}</p>
        </div>
      ) : null}
    </article>
  );
}
