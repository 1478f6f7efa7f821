import { Link } from "@/components/ui/link";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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
    <Table cards>
      <TableCaption visuallyHidden>Activity, newest first</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead>When</TableHead>
          <TableHead>What happened</TableHead>
          <TableHead>Kind</TableHead>
          <TableHead>Actor</TableHead>
          <TableHead>Subject</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id}>
            <TableCell label="When" className="whitespace-nowrap tabular-nums">
              <time dateTime={row.created_at}>{formatDateTimeZoned(row.created_at)}</time>
            </TableCell>
            <TableCell className="min-w-64">
              <Sentence row={row} />
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
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
