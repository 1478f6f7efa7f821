import { Link } from "@/components/ui/link";
import { DataTable } from "@/components/ui/data-table";
import type { ActivityRow } from "@/lib/data/admin-console";
import { formatDateTimeZoned } from "@/lib/format";
import { activityHref, activityKindLabel } from "@/lib/activity/filters";
import { activitySentence } from "@/lib/activity/sentences";

const NO_FILTER = { actor: null, kind: null, subject: null, from: null, to: null };

const SUBJECT_KINDS: Record<NonNullable<ActivityRow["subject_kind"]>, string> = {
  user: "User",
  competition: "Competition",
  draw: "Draw",
  top_up: "Top-up",
  complaint: "Complaint",
};

/** A row's sentence: its words, each record it names linked to that record's admin page. */
function Sentence({ row }: { row: ActivityRow }) {
  return (
    <p className="max-w-prose">
      {activitySentence(row).map((part, i) =>
        typeof part === "string" ? (
          part
        ) : (
          <Link key={i} href={part.href} className="font-medium underline underline-offset-4">
            {part.text}
          </Link>
        ),
      )}
    </p>
  );
}

/**
 * One page of the activity log, each row as a sentence. Kind, actor and subject link to the log filtered to
 * them (everything else they did or had done to them); the records in the sentence link to their admin pages.
 */
export function ActivityTable({ rows }: { rows: ActivityRow[] }) {
  return (
    <DataTable
      cards
      caption="Activity, newest first"
      captionHidden
      rows={rows}
      rowKey={(row) => row.id}
      columns={[
        {
          header: "When",
          className: "whitespace-nowrap tabular-nums",
          cell: (row) => <time dateTime={row.created_at}>{formatDateTimeZoned(row.created_at)}</time>,
        },
        { header: "What happened", unlabelled: true, className: "min-w-64", cell: (row) => <Sentence row={row} /> },
        {
          header: "Kind",
          cell: (row) => (
            <Link
              href={activityHref({ ...NO_FILTER, kind: row.action })}
              className="font-medium underline-offset-4 hover:underline"
            >
              {activityKindLabel(row.action)}
            </Link>
          ),
        },
        {
          header: "Actor",
          cell: (row) =>
            row.actor_id ? (
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
            ),
        },
        {
          header: "Subject",
          cell: (row) =>
            row.subject_id ? (
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
            ),
        },
      ]}
    />
  );
}
