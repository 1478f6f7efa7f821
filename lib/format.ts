// Display formatting only: money arithmetic happens in SQL (ARCHITECTURE §1).
const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
const gbpWhole = new Intl.NumberFormat("en-GB", {
  style: "currency",
  currency: "GBP",
  trailingZeroDisplay: "stripIfInteger",
});
const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "Europe/London",
});
const dateTimeZoned = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/London",
  timeZoneName: "short",
});
const date = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "Europe/London" });
const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/London" });
const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" });
// A "YYYY-MM" month is already the UK's (SQL made it), so it is read at noon on its first day in UTC.
const monthYear = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
const count = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 0 });

export const formatGBP = (amount: number) => gbp.format(amount);
/** A count of things: "12,345". */
export const formatCount = (n: number) => count.format(n);
/** Odds per ticket from how many tickets a draw had: "1 in 1,200" (a median may be a half: rounded). */
export const formatOdds = (tickets: number) => `1 in ${count.format(tickets)}`;
/** A prize or cash figure: "£1,200" when whole pounds, "£1,200.50" otherwise. */
export const formatPounds = (amount: number) => gbpWhole.format(amount);
// Every date and time on the site is read in the UK (Europe/London): one formatter of each kind, here.
export const formatDateTime = (iso: string | Date) => dateTime.format(new Date(iso));
/**
 * "25 Oct 2026, 01:30 BST": with GMT or BST, for a record whose moment must read one way only (the hour the
 * clocks go back happens twice).
 */
export const formatDateTimeZoned = (iso: string | Date) => dateTimeZoned.format(new Date(iso));
/** "15 January 2026", the day in the UK (a blog post's date-only "2026-01-15" is that day there too). */
export const formatDate = (iso: string | Date) => date.format(new Date(iso));
/** "November 2026", from a UK month as SQL names it ("2026-11"). */
export const formatMonth = (month: string) => monthYear.format(new Date(`${month}-01T12:00:00Z`));
/** HH:MM in the UK, with the date after it when it is not today there (as SQL's private.london_time_text). */
export function formatLondonTime(iso: string, now = new Date()): string {
  const at = new Date(iso);
  return day.format(at) === day.format(now) ? time.format(at) : `${time.format(at)} on ${date.format(at)}`;
}

/**
 * Text that ends a sentence, with one full stop: a winner shown as "Priya P." already has it ("won: Priya P.", never
 * "Priya P..").
 */
export const endSentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** How a winner is shown in public: first name and initial, and their town if they gave one. */
export const formatWinner = (w: { winner_display_name: string; winner_town?: string | null }) =>
  w.winner_town ? `${w.winner_display_name}, ${w.winner_town}` : w.winner_display_name;

/** A prize's position in words: 1st, 2nd, 3rd, 4th, 11th, 21st (as private.ordinal in SQL, for mail). */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
}
