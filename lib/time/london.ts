import { TZDate } from "@date-fns/tz";

// The UK's clock (Europe/London) for forms and file names: the rules of GMT and BST are @date-fns/tz's,
// on the platform's time-zone data, not ours. Display formatting is lib/format.ts.

export const LONDON = "Europe/London";

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const pad = (n: number) => String(n).padStart(2, "0");

/** A datetime-local value ("2026-12-01T20:00"), read as UK time, as an ISO instant; null when malformed. */
export function londonLocalToIso(local: string): string | null {
  const m = LOCAL_DATE_TIME.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0));
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return null;
  const instant = new TZDate(year, month - 1, day, hour, minute, second, LONDON).getTime();
  return Number.isNaN(instant) ? null : new Date(instant).toISOString();
}

/** An instant as a datetime-local value in UK time ("2026-12-01T20:00"), for a form's default. */
export function isoToLondonLocal(iso: string | null | undefined): string {
  if (!iso) return "";
  const t = new TZDate(Date.parse(iso), LONDON);
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

/** The UK day of an instant as YYYY-MM-DD (a CSV file's date, "today" on the admin charts). */
export function londonDay(at: Date | string | number = new Date()): string {
  const t = new TZDate(new Date(at).getTime(), LONDON);
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}
