import type { Competition } from "@/lib/data/competitions";

// Where a competition stands for someone looking at it now. The SQL (assert_open_for_entries)
// is the last word on entries; these mirror its messages so the page says the same thing.

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

/** Why entries are not possible right now, in the database's words, or null when they are. */
export function entryBlock(c: Competition, now: number): string | null {
  switch (c.status) {
    case "cancelled":
      return "This competition has been cancelled";
    case "sold_out":
      return "This competition has sold out";
    case "drawn":
      return c.tickets_sold >= c.total_tickets ? "This competition has sold out" : "This competition has closed";
    case "closed":
      return "This competition has closed";
    case "draft":
      return "This competition is not open for entries";
  }
  if (now < Date.parse(c.opens_at)) return `Entries open on ${formatOpensAt(c.opens_at)}`;
  if (now >= Date.parse(c.closes_at)) return "This competition has closed";
  if (c.tickets_left <= 0) return "This competition has sold out";
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
export const endingSoon = (c: Competition, now: number) => phaseOf(c, now) === "live" && Date.parse(c.closes_at) - now < 2 * DAY;

/** The clock for a request, read outside components so render stays pure. */
export const requestTime = () => Date.now();
