import { describe, expect, it } from "vitest";
import { bytesToHex, sha256 } from "@/lib/crypto/bytes";
import {
  drawCalendar,
  drawOutcome,
  LONG_POLL_MS,
  nextPollDelay,
  revealSteps,
  SHORT_POLL_MS,
} from "@/lib/draws/live-draw";
import { ticketListCsv } from "@/lib/draws/ticket-list";
import { commitmentOf, deriveWinner, DRAW_ALGORITHM_V2, verifyDraw, type PublishedDraw } from "@/lib/draws/verify";

// The live draw page's own logic: how often it asks for the draw, the order it reveals the verification in,
// and the calendar reminder. The verification itself is the verification page's (tests/unit/draws*.test.ts).

const MINUTE = 60_000;

describe("how often the live draw page asks", () => {
  const drawAt = Date.parse("2026-12-01T20:00:00Z");

  it("asks slowly while the draw is far off, never sleeping past two minutes before it", () => {
    expect(nextPollDelay(drawAt, drawAt - 60 * MINUTE)).toBe(LONG_POLL_MS);
    expect(nextPollDelay(drawAt, drawAt - 2 * MINUTE - 10_000)).toBe(10_000);
  });

  it("asks every two seconds from two minutes before the draw until it has happened", () => {
    expect(nextPollDelay(drawAt, drawAt - 2 * MINUTE)).toBe(SHORT_POLL_MS);
    expect(nextPollDelay(drawAt, drawAt - 1000)).toBe(SHORT_POLL_MS);
    expect(nextPollDelay(drawAt, drawAt + 5 * MINUTE)).toBe(SHORT_POLL_MS);
  });
});

describe("what a draw meant for the viewer", () => {
  it("says the viewer won when the winning number is theirs", () => {
    expect(drawOutcome([4, 13, 20], 13)).toEqual({ kind: "won", sentence: "You won! Your ticket #13 was drawn." });
  });

  it("says their tickets did not win, in the number they held", () => {
    expect(drawOutcome([4, 20], 13)).toEqual({ kind: "lost", sentence: "Your tickets did not win this time." });
    expect(drawOutcome([4], 13).sentence).toBe("Your ticket did not win this time.");
  });

  it("says so when they held no ticket", () => {
    expect(drawOutcome([], 13)).toEqual({ kind: "none", sentence: "You had no tickets in this draw." });
  });
});

/** A small labcash-draw-v2 draw made as SQL makes one, and its ticket list. */
async function smallDraw(): Promise<{ draw: PublishedDraw; csv: string }> {
  const hex = async (label: string) => bytesToHex(await sha256(label));
  const uuid = (h: string) =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  const rows = await Promise.all([1, 2, 5, 101].map(async (number) => ({ number, id: uuid(await hex(`t${number}`)) })));
  const seed = await hex("live-draw seed");
  const competitionId = uuid(await hex("live-draw competition"));
  const csv = ticketListCsv(rows);
  const listHash = bytesToHex(await sha256(csv));
  const derived = await deriveWinner({ seedHex: seed, competitionId, ticketListHashHex: listHash, ticketCount: 4 });
  const winner = rows[derived.winningNumber - 1];
  return {
    csv,
    draw: {
      algorithm: DRAW_ALGORITHM_V2,
      competition: { id: competitionId },
      ticket_count: rows.length,
      ticket_list_hash: listHash,
      seed_commitment: await commitmentOf(seed),
      seed_hex: seed,
      external_hex: null,
      counter: derived.counter,
      winning_position: derived.winningNumber,
      winning_number: winner.number,
      winning_ticket_id: winner.id,
    },
  };
}

describe("the reveal's steps", () => {
  it("groups every check of a draw that checks out in the order the draw is worked out", async () => {
    const { draw, csv } = await smallDraw();
    const verification = await verifyDraw(draw, { ticketList: csv });
    const steps = revealSteps(verification);
    expect(steps.map((s) => s.step)).toEqual(["seed", "list", "derivation", "ticket"]);
    expect(steps.every((s) => s.ok)).toBe(true);
    // Nothing is lost or shown twice.
    expect(steps.flatMap((s) => s.checks)).toHaveLength(verification.checks.length);
    expect(steps[0].checks[0].computed).toBe(draw.seed_commitment);
  });

  it("marks the step that fails, and only that one, when the seed does not match its commitment", async () => {
    const { draw, csv } = await smallDraw();
    const forged = { ...draw, seed_commitment: "0".repeat(64) };
    const steps = revealSteps(await verifyDraw(forged, { ticketList: csv }));
    expect(steps.filter((s) => !s.ok).map((s) => s.step)).toEqual(["seed"]);
  });

  it("marks the ticket list when a ticket was swapped after the draw", async () => {
    const { draw, csv } = await smallDraw();
    const swapped = csv.replace(/^5,(.)/m, (_line, first: string) => `5,${first === "a" ? "b" : "a"}`);
    expect(swapped).not.toBe(csv);
    const failing = revealSteps(await verifyDraw(draw, { ticketList: swapped }))
      .filter((s) => !s.ok)
      .map((s) => s.step);
    expect(failing[0]).toBe("list");
  });
});

describe("the calendar reminder", () => {
  const event = {
    id: "6f1c2b1e-1111-4222-8333-444455556666",
    title: "Win a MacBook Pro, 16-inch; M4 Max\\Space Black",
    drawAt: "2026-12-01T20:00:00.000Z",
    url: "https://labcash.example/competitions/macbook-pro/draw",
    stamp: "2026-11-20T09:30:15.123Z",
  };

  it("is one event at the draw time, in UTC, linking back to the page, with CRLF line ends", () => {
    const ics = drawCalendar(event);
    expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(ics).toContain("\r\nDTSTART:20261201T200000Z\r\n");
    expect(ics).toContain("\r\nDTEND:20261201T201500Z\r\n");
    expect(ics).toContain("\r\nDTSTAMP:20261120T093015Z\r\n");
    expect(ics).toContain(`\r\nUID:draw-${event.id}@labcash\r\n`);
    expect(ics).toContain(`\r\nURL:${event.url}\r\n`);
  });

  it("escapes commas, semicolons and backslashes, and folds lines longer than 75 octets", () => {
    const ics = drawCalendar(event);
    const lines = ics.split("\r\n");
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const unfolded = ics.replace(/\r\n /g, "");
    expect(unfolded).toContain("SUMMARY:Live draw: Win a MacBook Pro\\, 16-inch\\; M4 Max\\\\Space Black\r\n");
    expect(unfolded).toContain(`DESCRIPTION:Watch the draw and check it in your browser: ${event.url}\r\n`);
  });

  it("never splits a character when folding", () => {
    const ics = drawCalendar({
      ...event,
      title: "Gewinnen Sie einen Kühlschrank für die Küche – 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉",
    });
    const unfolded = ics.replace(/\r\n /g, "");
    expect(unfolded).toContain(
      "SUMMARY:Live draw: Gewinnen Sie einen Kühlschrank für die Küche – 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉\r\n",
    );
    for (const line of ics.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  });
});
