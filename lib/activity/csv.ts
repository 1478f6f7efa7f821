import { activitySentence, sentenceText, type SentenceRow } from "./sentences";

// The activity log as CSV: the columns it always had, the details as the sentence the screen shows, and the
// details as recorded (JSON) last, for machines. Written here rather than in SQL because the sentence's words
// live in the site; every other CSV is written in SQL with private.csv_field, which csvCell follows exactly
// (tests/db/csv-cells.test.ts holds the two to the same answers).

export const ACTIVITY_CSV_HEADER =
  "id,created_at,action,actor_id,actor,actor_email,subject_id,subject_kind,subject,details,details_json";

/**
 * One CSV cell, by OWASP's CSV-injection guidance as private.csv_field: a cell starting with = + - @ tab or CR
 * is prefixed with ' and quoted; one containing , ; " CR or LF is quoted, its quotes doubled; null is empty.
 */
export function csvCell(value: string | null): string {
  if (value === null) return "";
  if (/^[=+\-@\t\r]/.test(value)) return `"${`'${value}`.replace(/"/g, '""')}"`;
  if (/[,;"\r\n]/.test(value)) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

/** A moment as the CSV has always written it: UTC to the second, "2026-03-29T01:30:00Z". */
const utcSecond = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, "Z");

export type ActivityCsvRow = SentenceRow & {
  id: number;
  created_at: string;
  actor_email: string | null;
  subject_kind: string | null;
};

/** The rows' lines, each ending in a newline. */
export function activityCsvLines(rows: readonly ActivityCsvRow[]): string {
  return rows
    .map(
      (row) =>
        [
          String(row.id),
          utcSecond(row.created_at),
          csvCell(row.action),
          row.actor_id ?? "",
          csvCell(row.actor_name),
          csvCell(row.actor_email),
          row.subject_id ?? "",
          row.subject_kind ?? "",
          csvCell(row.subject_label),
          csvCell(sentenceText(activitySentence(row))),
          csvCell(JSON.stringify(row.details)),
        ].join(",") + "\n",
    )
    .join("");
}

/**
 * The whole file from chunks of rows, each chunk's lines as it comes. The header goes with the first chunk, so
 * nothing is written before the database has answered (a refusal is then a status code, not a broken file).
 */
export async function* activityCsv(
  chunks: AsyncIterable<readonly ActivityCsvRow[]> | Iterable<readonly ActivityCsvRow[]>,
): AsyncGenerator<string> {
  let header = `${ACTIVITY_CSV_HEADER}\n`;
  for await (const rows of chunks) {
    yield header + activityCsvLines(rows);
    header = "";
  }
  if (header) yield header;
}
