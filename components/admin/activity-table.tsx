import { Link } from "@/components/ui/link";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ActivityRow } from "@/lib/data/admin-console";
import { formatDateTime } from "@/lib/format";
import { activityHref, activityKindLabel } from "@/lib/activity/filters";

const NO_FILTER = { actor: null, kind: null, subject: null, from: null, to: null };

const SUBJECT_KINDS: Record<NonNullable<ActivityRow["subject_kind"]>, string> = {
  user: "User",
  competition: "Competition",
  draw: "Draw",
  top_up: "Top-up",
  complaint: "Complaint",
};

/** A detail value as text: strings as they are, anything else as JSON. */
const detailText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** One page of the activity log. Actor and subject link to everything else they did or had done to them. */
export function ActivityTable({ rows }: { rows: ActivityRow[] }) {
  return (
    <Table cards>
      <TableCaption visuallyHidden>Activity, newest first</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>When</TableHead>
          <TableHead>Kind</TableHead>
          <TableHead>Actor</TableHead>
          <TableHead>Subject</TableHead>
          <TableHead>Details</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => {
          const details = Object.entries(row.details);
          return (
            <TableRow key={row.id}>
              <TableCell label="When" className="whitespace-nowrap tabular-nums">
                <time dateTime={row.created_at}>{formatDateTime(row.created_at)}</time>
              </TableCell>
              <TableCell label="Kind">
                <Link
                  href={activityHref({ ...NO_FILTER, kind: row.action })}
                  className="font-medium underline-offset-4 hover:underline"
                >
                  {activityKindLabel(row.action)}
                </Link>
              </TableCell>
              <TableCell label="Actor">
                {row.actor_id ? (
                  <>
                    <Link
                      href={activityHref({ ...NO_FILTER, actor: row.actor_id })}
                      className="underline-offset-4 hover:underline"
                    >
                      {row.actor_name ?? "Deleted user"}
                    </Link>
                    {row.actor_email ? (
                      <span className="block text-xs text-muted-foreground">{row.actor_email}</span>
                    ) : null}
                  </>
                ) : (
                  <span className="text-muted-foreground">System</span>
                )}
              </TableCell>
              <TableCell label="Subject">
                {row.subject_id ? (
                  <>
                    <Link
                      href={activityHref({ ...NO_FILTER, subject: row.subject_id })}
                      className="underline-offset-4 hover:underline"
                    >
                      {row.subject_label ?? row.subject_id}
                    </Link>
                    {row.subject_kind ? (
                      <span className="block text-xs text-muted-foreground">{SUBJECT_KINDS[row.subject_kind]}</span>
                    ) : null}
                  </>
                ) : (
                  <span className="text-muted-foreground">None</span>
                )}
              </TableCell>
              <TableCell label="Details">
                {details.length ? (
                  <dl className="grid max-w-md grid-cols-[auto_1fr] gap-x-2 text-xs">
                    {details.map(([key, value]) => (
                      <div key={key} className="contents">
                        <dt className="text-muted-foreground">{key}</dt>
                        <dd className="min-w-0 wrap-anywhere">{detailText(value)}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
