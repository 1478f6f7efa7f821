import { AlertTriangle } from "lucide-react";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import type { AdminComplaint, ComplaintStatus } from "@/lib/data/admin-complaints";
import { formatDateTime } from "@/lib/format";
import { ENUM_VALUES, enumLabel, LABELS } from "@/lib/labels";

/** The status filter's choices, in the order SQL declares them. */
export const COMPLAINT_STATUSES: { key: ComplaintStatus; label: string }[] = ENUM_VALUES.complaint_status.map(
  (key) => ({
    key,
    label: LABELS.complaint_status[key],
  }),
);

const tone: Record<ComplaintStatus, BadgeVariant> = {
  received: "warning",
  acknowledged: "info",
  resolved: "success",
};

export function ComplaintStatusBadge({ status }: { status: ComplaintStatus }) {
  return <Badge variant={tone[status]}>{enumLabel("complaint_status", status)}</Badge>;
}

/** "Overdue" in words and with an icon, never by colour alone. */
export function OverdueBadge({ children = "Overdue" }: { children?: React.ReactNode }) {
  return (
    <Badge variant="destructive" className="gap-1">
      <AlertTriangle aria-hidden className="size-3.5" />
      {children}
    </Badge>
  );
}

/** Which deadlines have passed (SQL's overdue rule, per deadline): acknowledging while received, the answer until resolved. */
export function missedDeadlines(c: AdminComplaint, now: number) {
  return {
    acknowledge: c.status === "received" && Date.parse(c.acknowledge_by) < now,
    respond: c.status !== "resolved" && Date.parse(c.respond_by) < now,
  };
}

/** A deadline: the date, what happened by then, or "Overdue". */
export function Deadline({ due, doneAt, missed }: { due: string; doneAt: string | null; missed: boolean }) {
  return (
    <span className="flex flex-col items-start gap-1">
      <span className="whitespace-nowrap">{formatDateTime(due)}</span>
      {doneAt ? (
        <span className="text-xs text-muted-foreground">Done {formatDateTime(doneAt)}</span>
      ) : missed ? (
        <OverdueBadge />
      ) : null}
    </span>
  );
}
