import { describe, expect, it } from "vitest";
import { ticketListCsv, type TicketRow } from "@/lib/draws/ticket-list";
import { bytesToHex, sha256 } from "@/lib/crypto/bytes";
import {
  commitmentOf,
  deriveWinner,
  deriveWinners,
  DRAW_ALGORITHM_V2,
  verifyDraw,
  type PublishedDraw,
} from "@/lib/draws/verify";
import { ordinal } from "@/lib/format";
import { hexOf, uuidOf } from "./support/sql-agreement";

// Several prizes from one draw: one counter stream, each accepted row no earlier prize took goes to the next prize.
// The verifier recomputes every prize from any one prize's page and fails, naming the check, on anything tampered.

const failed = (checks: { name: string; ok: boolean }[]) => checks.filter((c) => !c.ok).map((c) => c.name);

/** A published three-prize draw over `count` tickets (postal ones after a gap) and its ticket list; one view per prize. */
async function threePrizeDraw(label: string, count: number) {
  const rows: TicketRow[] = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const number = i < count - 2 ? i + 1 : 1000 + i; // the last two are postal, numbered after the pool
      return { number, id: await uuidOf(`ticket:${label}:${number}`) };
    }),
  );
  const seed = await hexOf(`seed:${label}`);
  const competitionId = await uuidOf(`competition:${label}`);
  const csv = ticketListCsv(rows);
  const listHash = bytesToHex(await sha256(csv));
  const input = {
    seedHex: seed,
    competitionId,
    ticketListHashHex: listHash,
    externalHex: null,
    ticketCount: rows.length,
  };
  const winners = await deriveWinners(input, 3);
  const prizes = winners.map((w, i) => ({
    prize_position: i + 1,
    draw_id: `00000000-0000-4000-8000-00000000000${i + 1}`,
    counter: w.counter,
    winning_position: w.winningNumber,
    winning_number: rows[w.winningNumber - 1].number,
    winning_ticket_id: rows[w.winningNumber - 1].id,
    winner_display_name: `Winner ${i + 1}`,
    winner_town: null,
    prize_description: `Prize ${i + 1}`,
  }));
  const commitment = await commitmentOf(seed);
  const views: PublishedDraw[] = prizes.map((p) => ({
    algorithm: DRAW_ALGORITHM_V2,
    competition: { id: competitionId },
    ticket_count: rows.length,
    ticket_list_hash: listHash,
    seed_commitment: commitment,
    seed_hex: seed,
    external_hex: null,
    counter: p.counter,
    winning_position: p.winning_position,
    winning_number: p.winning_number,
    winning_ticket_id: p.winning_ticket_id,
    tickets: null,
    prize_position: p.prize_position,
    prizes,
    prizes_offered: 3,
  }));
  return { rows, csv, input, winners, views };
}

describe("several prizes per draw", () => {
  it("draws the first prize exactly as a one-prize draw, and no row twice", async () => {
    for (let i = 0; i < 40; i++) {
      const input = {
        seedHex: await hexOf(`s:${i}`),
        competitionId: await uuidOf(`c:${i}`),
        ticketListHashHex: await hexOf(`l:${i}`),
        externalHex: null,
        ticketCount: 3 + (i % 5),
      };
      const all = await deriveWinners(input, input.ticketCount);
      expect(all[0]).toEqual(await deriveWinner(input));
      expect(new Set(all.map((w) => w.winningNumber)).size).toBe(input.ticketCount);
      // Counters rise: each prize comes later in the stream than the one before it.
      expect(all.map((w) => w.counter)).toEqual([...all.map((w) => w.counter)].sort((a, b) => a - b));
    }
    await expect(
      deriveWinners(
        {
          seedHex: "ab".repeat(32),
          competitionId: await uuidOf("x"),
          ticketListHashHex: "cd".repeat(32),
          ticketCount: 2,
        },
        3,
      ),
    ).rejects.toThrow(/as many prizes as there are tickets/);
  });

  it("recomputes every prize from any prize's page, postal tickets included", async () => {
    const { csv, views, rows } = await threePrizeDraw("every-prize", 6);
    for (const view of views) {
      const result = await verifyDraw(view, { ticketList: csv });
      expect(result.ok, JSON.stringify(failed(result.checks))).toBe(true);
      expect(result.winningNumber).toBe(view.winning_number);
      expect(result.prizes.map((p) => p.winningNumber)).toEqual(view.prizes!.map((p) => p.winning_number));
      expect(result.checks.map((c) => c.name)).toEqual(
        expect.arrayContaining([
          "Prizes drawn",
          "Winning ticket",
          `${ordinal(view.prize_position === 1 ? 2 : 1)} prize: winning ticket`,
        ]),
      );
    }
    // Six tickets, three prizes: over many draws a postal ticket wins as often as any; here, at least it can.
    expect(rows.slice(-2).every((r) => r.number > 1000)).toBe(true);
  });

  it("fails on a tampered list from every prize's page, and names the prize whose result was changed", async () => {
    const { csv, views, rows } = await threePrizeDraw("tampered", 12);
    const lines = csv.split("\n");
    const swapped = [lines[0], lines[2], lines[1], ...lines.slice(3)].join("\n");
    const dropped = [lines[0], ...lines.slice(2)].join("\n");
    const otherIds = csv.replace(rows[0].id, rows[1].id);
    for (const view of views) {
      for (const list of [swapped, dropped, otherIds]) {
        const result = await verifyDraw(view, { ticketList: list });
        expect(result.ok, `prize ${view.prize_position}`).toBe(false);
      }
    }
    // A result changed on one prize fails that prize's checks, seen from any prize's page.
    const second = views[1].prizes![1];
    const notTheWinner = rows.find((r) => !views[0].prizes!.some((p) => p.winning_ticket_id === r.id))!;
    const tamperedPrizes = views[0].prizes!.map((p) =>
      p.prize_position === 2 ? { ...p, winning_ticket_id: notTheWinner.id } : p,
    );
    for (const view of views) {
      // Published consistently: the second prize's own page shows the same changed winner.
      const changed = view.prize_position === 2 ? { winning_ticket_id: notTheWinner.id } : {};
      const result = await verifyDraw({ ...view, ...changed, prizes: tamperedPrizes }, { ticketList: csv });
      expect(result.ok).toBe(false);
      expect(failed(result.checks)).toEqual([
        view.prize_position === 2 ? "Winning ticket" : "2nd prize: winning ticket",
      ]);
    }
    expect(second.prize_position).toBe(2);
    // A prize left out of the published list, or one it adds, is noticed, from any prize's page.
    const lastDropped = await verifyDraw({ ...views[0], prizes: views[0].prizes!.slice(0, 2) }, { ticketList: csv });
    expect(failed(lastDropped.checks)).toEqual(expect.arrayContaining(["Prizes drawn", "3rd prize: counter"]));
    const middleDropped = await verifyDraw(
      { ...views[0], prizes: [views[0].prizes![0], views[0].prizes![2]] },
      { ticketList: csv },
    );
    expect(failed(middleDropped.checks)).toEqual(
      expect.arrayContaining(["Prizes drawn", "Prizes listed in order", "2nd prize: counter"]),
    );
    // A page claiming a prize the list does not hold recomputes it and finds it is not what the page says.
    const unlisted = await verifyDraw(
      { ...views[2], prize_position: 3, winning_ticket_id: rows[0].id, prizes: views[2].prizes!.slice(0, 2) },
      { ticketList: csv },
    );
    expect(unlisted.ok).toBe(false);
    // A prize beyond what any list could hold is refused outright, not skipped.
    const farAway = await verifyDraw(
      { ...views[0], prizes: [...views[0].prizes!, { ...views[0].prizes![2], prize_position: 999_999 }] },
      { ticketList: csv },
    );
    expect(farAway.ok).toBe(false);
    expect(failed(farAway.checks)).toEqual(expect.arrayContaining(["Prizes the list can hold"]));
  });

  it("names positions as the mail and the pages do", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
    ]);
  });
});
