// The live draw page (/competitions/{slug}/draw): what its small JSON route answers, how often the page
// asks, the order it reveals a verification in, and the calendar reminder it offers. No server-only
// imports: the page's client island uses these too.

import { ordinal } from "@/lib/format";
import type { Check, CheckStep, PublishedDraw, Verification } from "./verify";

/** A draw as the live draw page reveals it: what get_draw publishes, with the winner as /winners names them. */
export type LiveDraw = PublishedDraw & {
  id: string;
  drawn_at: string;
  /** "Priya P., Leeds", or initials only (lib/format formatWinner). */
  winner: string;
  /** v2: the ticket-list CSV the browser hashes; null for v1, whose list is in the draw. */
  ticket_list_url: string | null;
};

/** The route's answer: waiting for the draw, drawn, or over with no draw (no tickets at the draw time, or cancelled). */
export type LiveDrawState = {
  status: "waiting" | "drawn" | "no_tickets" | "cancelled";
  draw_at: string;
  /** Tickets in the draw so far, online and postal. */
  tickets: number;
  draw: LiveDraw | null;
};

/** What a draw meant for one viewer, given the ticket numbers they held. */
export type DrawOutcome = { kind: "won" | "lost" | "none"; sentence: string };

/** One prize's winning ticket. */
export type PrizeWinner = { prize_position: number; winning_number: number };

/**
 * The viewer's result in words: the same sentence on the live draw page and under "Your tickets". `winners` is the
 * winning number of a one-prize draw, or every prize's winning ticket.
 */
export function drawOutcome(myTickets: readonly number[], winners: number | readonly PrizeWinner[]): DrawOutcome {
  const prizes = typeof winners === "number" ? [{ prize_position: 1, winning_number: winners }] : winners;
  const mine = prizes.filter((w) => myTickets.includes(w.winning_number));
  if (mine.length > 0 && prizes.length === 1)
    return { kind: "won", sentence: `You won! Your ticket #${mine[0].winning_number} was drawn.` };
  if (mine.length > 0)
    return {
      kind: "won",
      sentence: `You won! ${mine.map((w) => `Your ticket #${w.winning_number} won the ${ordinal(w.prize_position)} prize.`).join(" ")}`,
    };
  if (myTickets.length === 0) return { kind: "none", sentence: "You had no tickets in this draw." };
  const tickets = myTickets.length === 1 ? "ticket" : "tickets";
  return { kind: "lost", sentence: `Your ${tickets} did not win this time.` };
}

export const liveDrawStatePath = (slug: string) => `/competitions/${slug}/draw/state.json`;

/** More than this before the draw, the page asks every LONG_POLL_MS; nearer and after, every SHORT_POLL_MS. */
const NEAR_DRAW_MS = 2 * 60_000;
export const LONG_POLL_MS = 30_000;
export const SHORT_POLL_MS = 2_000;

/**
 * How long the page waits before asking again. The answer is cached for a second or two, so asking more
 * often gains nothing; far from the draw a slow pace keeps idle tabs cheap, and it never sleeps past the
 * moment the draw becomes due.
 */
export function nextPollDelay(drawAtMs: number, nowMs: number): number {
  const left = drawAtMs - nowMs;
  if (left <= NEAR_DRAW_MS) return SHORT_POLL_MS;
  return Math.min(LONG_POLL_MS, left - NEAR_DRAW_MS);
}

export const REVEAL_ORDER: readonly CheckStep[] = ["seed", "list", "derivation", "ticket"];

export type RevealStep = { step: CheckStep; ok: boolean; checks: Check[] };

/**
 * A verification's checks grouped in the order the page reveals them; a step with no checks is left out. With several
 * prizes, each prize's own checks are left to its own step at the end (prizeChecks), so no winner shows early.
 */
export function revealSteps(verification: Verification): RevealStep[] {
  return REVEAL_ORDER.map((step) => {
    const checks = verification.checks.filter((c) => c.step === step && c.prize === undefined);
    return { step, ok: checks.every((c) => c.ok), checks };
  }).filter((s) => s.checks.length > 0);
}

/** With several prizes, the checks about one prize: revealed with its winner. */
export const prizeChecks = (verification: Verification, position: number): Check[] =>
  verification.checks.filter((c) => c.prize === position);

const icsText = (text: string) => text.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");
const icsTime = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** RFC 5545 folds lines longer than 75 octets: a CRLF and one space before each continuation. */
function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let part = "";
  let size = 0;
  for (const char of line) {
    const width = new TextEncoder().encode(char).length;
    if (size + width > (parts.length === 0 ? 75 : 74)) {
      parts.push(part);
      part = "";
      size = 0;
    }
    part += char;
    size += width;
  }
  parts.push(part);
  return parts.join("\r\n ");
}

/**
 * A one-event calendar (text/calendar) for the draw: the reminder anyone may keep, signed in or not, whose
 * link leads back to the live draw page. `stamp` is when the file was made (DTSTAMP).
 */
export function drawCalendar(event: { id: string; title: string; drawAt: string; url: string; stamp: string }): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//LabCash//Live draw//EN",
    "CALSCALE:GREGORIAN",
    "BEGIN:VEVENT",
    `UID:draw-${event.id}@labcash`,
    `DTSTAMP:${icsTime(event.stamp)}`,
    `DTSTART:${icsTime(event.drawAt)}`,
    `DTEND:${icsTime(new Date(Date.parse(event.drawAt) + 15 * 60_000).toISOString())}`,
    `SUMMARY:${icsText(`Live draw: ${event.title}`)}`,
    `DESCRIPTION:${icsText(`Watch the draw and check it in your browser: ${event.url}`)}`,
    `URL:${event.url}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}
