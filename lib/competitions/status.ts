import type { Competition } from "@/lib/data/competitions";
import type { DbErrorCode } from "@/lib/data/errors";
import { formatDateTime } from "@/lib/format";

// Where a competition stands for someone looking at it now. The SQL (lock_competition_for_entry,
// admin_record_postal_entry, run_due_draws) is the last word; these mirror its rules, messages and
// codes so the page says the same thing.
//
// The life of a published competition: opens_at → online sales (until closes_at, or the sell-out,
// whichever comes first) → postal window (letters still enter until postal_deadline) → draw at draw_at.
// A sell-out ends online sales only; it never brings the draw forward.

const momentFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "Europe/London",
});

/** "23 November 2026 at 13:00", UK time: the form the database's messages use. */
export const formatMoment = (iso: string) => momentFormat.format(new Date(iso));

/** Why online entries are not possible right now: the database's code and words. */
export type EntryBlock = {
  code: Extract<
    DbErrorCode,
    | "competition_cancelled"
    | "competition_sold_out"
    | "competition_closed"
    | "competition_not_open"
    | "competition_not_yet_open"
  >;
  message: string;
};

const blocked = (code: EntryBlock["code"], message: string): EntryBlock => ({ code, message });
const soldOutBlock = () => blocked("competition_sold_out", "This competition has sold out");
const closedBlock = () => blocked("competition_closed", "This competition has closed");

/** Every online ticket has been sold. */
export const isSoldOut = (c: Competition) => c.tickets_left <= 0;

/** Why online entries are not possible right now, or null when they are (lock_competition_for_entry). */
export function entryBlock(c: Competition, now: number): EntryBlock | null {
  switch (c.status) {
    case "cancelled":
      return blocked("competition_cancelled", "This competition has been cancelled");
    case "sold_out":
      return soldOutBlock();
    case "drawn":
      return isSoldOut(c) ? soldOutBlock() : closedBlock();
    case "closed":
      return closedBlock();
    case "draft":
      return blocked("competition_not_open", "This competition is not open for entries");
  }
  if (now < Date.parse(c.opens_at))
    return blocked("competition_not_yet_open", `Entries open on ${formatMoment(c.opens_at)}`);
  if (now >= Date.parse(c.closes_at)) return closedBlock();
  if (isSoldOut(c)) return soldOutBlock();
  return null;
}

/** Why a letter arriving now would not be entered, or null when it would (admin_record_postal_entry). */
export type PostalBlock = {
  code: Extract<
    DbErrorCode,
    "competition_cancelled" | "competition_not_open" | "postal_deadline_passed" | "competition_not_yet_open"
  >;
  message: string;
};

export function postalBlock(c: Competition, now: number): PostalBlock | null {
  if (c.status === "draft")
    return { code: "competition_not_open", message: "This competition is not open for entries" };
  if (c.status === "cancelled")
    return { code: "competition_cancelled", message: "This competition has been cancelled" };
  if (c.status === "drawn" || now >= Date.parse(c.postal_deadline))
    return {
      code: "postal_deadline_passed",
      message: `Postal entries for this competition closed on ${formatMoment(c.postal_deadline)}`,
    };
  if (now < Date.parse(c.opens_at))
    return { code: "competition_not_yet_open", message: `Entries open on ${formatMoment(c.opens_at)}` };
  return null;
}

export type Phase =
  "draft" | "upcoming" | "live" | "postal_window" | "awaiting_draw" | "drawn" | "closed" | "cancelled";

/**
 * - upcoming: published, opens_at still ahead;
 * - live: online sales open;
 * - postal_window: online sales ended (sold out or closed), letters still enter until the postal deadline;
 * - awaiting_draw: the postal deadline has passed, the draw has not happened yet;
 * - drawn; closed: the draw time passed with no tickets, so there is no winner; cancelled; draft.
 */
export function phaseOf(c: Competition, now: number): Phase {
  switch (c.status) {
    case "draft":
    case "cancelled":
    case "drawn":
      return c.status;
    case "live":
      if (now < Date.parse(c.opens_at)) return "upcoming";
      if (now < Date.parse(c.closes_at) && !isSoldOut(c)) return "live";
  }
  if (now < Date.parse(c.postal_deadline)) return "postal_window";
  if (now < Date.parse(c.draw_at) || c.tickets_sold + c.postal_tickets > 0) return "awaiting_draw";
  return "closed";
}

export const phaseLabel: Record<Phase, string> = {
  draft: "Draft (admin preview)",
  upcoming: "Opening soon",
  live: "Live",
  postal_window: "Postal entries only",
  awaiting_draw: "Awaiting draw",
  drawn: "Drawn",
  closed: "Closed",
  cancelled: "Cancelled",
};

/** The draw time has come and the cron has not drawn it yet (it runs every minute). */
export const drawDue = (c: Competition, now: number) =>
  phaseOf(c, now) === "awaiting_draw" && now >= Date.parse(c.draw_at);

/** The status pill: "Sold out" says more than the phase while a sold-out competition waits for its draw. */
export function badgeLabel(c: Competition, now: number): string {
  const phase = phaseOf(c, now);
  if (drawDue(c, now)) return "Drawing now";
  if ((phase === "postal_window" || phase === "awaiting_draw") && isSoldOut(c)) return "Sold out";
  return phaseLabel[phase];
}

/**
 * One line for a competition whose online sales have ended and whose draw is still to come:
 * "Sold out — drawn on 25 November 2026 at 18:00", or null in any other phase.
 */
export function drawPendingLine(c: Competition, now: number): string | null {
  const phase = phaseOf(c, now);
  if (phase !== "postal_window" && phase !== "awaiting_draw") return null;
  const ended = isSoldOut(c) ? "Sold out" : "Online entries closed";
  if (drawDue(c, now)) return `${ended} — drawing now`;
  return `${ended} — drawn on ${formatMoment(c.draw_at)}`;
}

const DAY = 86_400_000;

/** Live and closing within two days. */
export const endingSoon = (c: Competition, now: number) =>
  phaseOf(c, now) === "live" && Date.parse(c.closes_at) - now < 2 * DAY;

/** The clock for a request, read outside components so render stays pure. */
export const requestTime = () => Date.now();

/** The odds before entry (code of practice 2.3): N is the online tickets; postal tickets come on top. */
export const oddsText = (c: Competition) =>
  `1 in ${c.total_tickets.toLocaleString("en-GB")} per ticket, plus free postal entries`;

/**
 * When a draft opens if it is published at `now`, in words: a draft saved with the opens-at field empty holds the
 * time it was saved, which is past by the time it is published, so it opens at once.
 */
export function opensOnPublish(opensAt: string, now: number): string {
  return Date.parse(opensAt) <= now ? "Now, as soon as it is published" : formatDateTime(opensAt);
}
