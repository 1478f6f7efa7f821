import type { Competition } from "@/lib/data/competitions";
import type { DbErrorCode } from "@/lib/data/errors";

// Where a competition stands for someone looking at it now. The SQL (lock_competition_for_entry)
// is the last word on entries; these mirror its messages and codes so the page says the same thing.

const opensFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "Europe/London",
});

export const formatOpensAt = (iso: string) => opensFormat.format(new Date(iso));

/** Why entries are not possible right now: the database's code and words. */
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
const soldOut = () => blocked("competition_sold_out", "This competition has sold out");
const closed = () => blocked("competition_closed", "This competition has closed");

/** Why entries are not possible right now, or null when they are. */
export function entryBlock(c: Competition, now: number): EntryBlock | null {
  switch (c.status) {
    case "cancelled":
      return blocked("competition_cancelled", "This competition has been cancelled");
    case "sold_out":
      return soldOut();
    case "drawn":
      return c.tickets_sold >= c.total_tickets ? soldOut() : closed();
    case "closed":
      return closed();
    case "draft":
      return blocked("competition_not_open", "This competition is not open for entries");
  }
  if (now < Date.parse(c.opens_at))
    return blocked("competition_not_yet_open", `Entries open on ${formatOpensAt(c.opens_at)}`);
  if (now >= Date.parse(c.closes_at)) return closed();
  if (c.tickets_left <= 0) return soldOut();
  return null;
}

export type Phase = "draft" | "live" | "upcoming" | "awaiting_draw" | "drawn" | "closed" | "cancelled";

export function phaseOf(c: Competition, now: number): Phase {
  if (c.status === "draft") return "draft";
  if (c.status === "cancelled") return "cancelled";
  if (c.status === "drawn") return "drawn";
  if (c.status === "closed") return c.tickets_sold > 0 ? "awaiting_draw" : "closed";
  if (c.status === "sold_out") return "awaiting_draw";
  if (now < Date.parse(c.opens_at)) return "upcoming";
  if (now >= Date.parse(c.closes_at) || c.tickets_left <= 0) return c.tickets_sold > 0 ? "awaiting_draw" : "closed";
  return "live";
}

export const phaseLabel: Record<Phase, string> = {
  draft: "Draft (admin preview)",
  live: "Live",
  upcoming: "Opening soon",
  awaiting_draw: "Drawing now",
  drawn: "Drawn",
  closed: "Closed",
  cancelled: "Cancelled",
};

const DAY = 86_400_000;

/** Live and closing within two days. */
export const endingSoon = (c: Competition, now: number) =>
  phaseOf(c, now) === "live" && Date.parse(c.closes_at) - now < 2 * DAY;

/** The clock for a request, read outside components so render stays pure. */
export const requestTime = () => Date.now();
