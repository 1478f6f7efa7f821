import { describe, expect, it } from "vitest";
import { bytesToHex, sha256 } from "@/lib/crypto/bytes";
import {
  commitmentOf,
  deriveWinner,
  pick,
  ticketListHash,
  ticketListText,
  verifyDraw,
  type PublishedDraw,
} from "@/lib/draws/verify";

// Deterministic stand-ins for random inputs: SHA-256 of a label.
const hexOf = async (label: string) => bytesToHex(await sha256(label));
const uuidOf = async (label: string) => {
  const h = await hexOf(label);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

async function publishedDraw(
  label: string,
  ticketCount: number,
  externalHex: string | null = null,
): Promise<PublishedDraw & { tickets: string[] }> {
  const seed = await hexOf(`seed:${label}`);
  const competitionId = await uuidOf(`competition:${label}`);
  const tickets = await Promise.all(Array.from({ length: ticketCount }, (_, i) => uuidOf(`ticket:${label}:${i}`)));
  const listHash = await ticketListHash(tickets);
  const { winningNumber, counter } = await deriveWinner({
    seedHex: seed,
    competitionId,
    ticketListHashHex: listHash,
    externalHex,
    ticketCount,
  });
  return {
    algorithm: "labcash-draw-v1",
    competition: { id: competitionId },
    ticket_count: ticketCount,
    ticket_list_hash: listHash,
    seed_commitment: await commitmentOf(seed),
    seed_hex: seed,
    external_hex: externalHex,
    counter,
    winning_number: winningNumber,
    winning_ticket_id: tickets[winningNumber - 1],
    tickets,
  };
}

describe("draw derivation", () => {
  it("matches a known answer (pins the algorithm)", async () => {
    expect(ticketListText(["A0000000-0000-4000-8000-000000000001", "a0000000-0000-4000-8000-000000000002"])).toBe(
      "1:a0000000-0000-4000-8000-000000000001\n2:a0000000-0000-4000-8000-000000000002\n",
    );
    expect(await commitmentOf("00".repeat(32))).toBe(
      "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    );
    const fixed = await deriveWinner({
      seedHex: "00".repeat(32),
      competitionId: "00000000-0000-4000-8000-000000000000",
      ticketListHashHex: "11".repeat(32),
      ticketCount: 1000,
    });
    // SHA-256(00×32 ‖ uuid ‖ 11×32 ‖ 00000000), first 6 bytes mod 1000, plus one.
    const h = await sha256(
      new Uint8Array([
        ...new Uint8Array(32),
        0,
        0,
        0,
        0,
        0,
        0,
        0x40,
        0,
        0x80,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        ...new Uint8Array(32).fill(0x11),
        0,
        0,
        0,
        0,
      ]),
    );
    const x = h.slice(0, 6).reduce((n, b) => n * 256 + b, 0);
    expect(fixed).toEqual({ winningNumber: (x % 1000) + 1, counter: 0 });
  });

  it("rejects the biased tail and accepts everything below it", () => {
    const two48 = 2 ** 48;
    for (const n of [1, 2, 3, 7, 10, 1000, 999_983, 2 ** 31 - 1]) {
      const limit = two48 - (two48 % n);
      expect(pick(0, n)).toBe(1);
      expect(pick(limit - 1, n)).toBe(n);
      if (limit < two48) expect(pick(limit, n)).toBeNull();
      expect(pick(two48 - 1, n)).toBe(limit === two48 ? ((two48 - 1) % n) + 1 : null);
    }
  });

  it("recomputing a draw from its revealed inputs gives the same winner", async () => {
    for (const [label, n, ext] of [
      ["a", 1, null],
      ["b", 2, null],
      ["c", 50, null],
      ["d", 777, "ab".repeat(32)],
      ["e", 3, "0102"],
    ] as const) {
      const draw = await publishedDraw(label, n, ext);
      const again = await verifyDraw(structuredClone(draw));
      expect(again.ok, label).toBe(true);
      expect(again.winningNumber).toBe(draw.winning_number);
      expect(again.checks.every((c) => c.ok)).toBe(true);
    }
  });

  it("a tampered seed, ticket list, external value or result fails verification", async () => {
    const draw = await publishedDraw("tamper", 40, "cd".repeat(32));
    const flipped = (hex: string) => (hex[0] === "0" ? "1" : "0") + hex.slice(1);

    const badSeed = await verifyDraw({ ...draw, seed_hex: flipped(draw.seed_hex) });
    expect(badSeed.ok).toBe(false);
    expect(badSeed.checks.find((c) => c.name.startsWith("Seed matches"))?.ok).toBe(false);

    const swapped = [...draw.tickets];
    [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
    const badList = await verifyDraw({ ...draw, tickets: swapped });
    expect(badList.ok).toBe(false);
    expect(badList.checks.find((c) => c.name === "Ticket list hash")?.ok).toBe(false);

    const dropped = await verifyDraw({ ...draw, tickets: draw.tickets.slice(1) });
    expect(dropped.ok).toBe(false);

    const otherWinner = await verifyDraw({ ...draw, winning_number: (draw.winning_number % 40) + 1 });
    expect(otherWinner.ok).toBe(false);

    const badExternal = await verifyDraw({ ...draw, external_hex: flipped(draw.external_hex!) });
    expect(badExternal.ok).toBe(false);
  });

  it("shows no bias: chi-square over many simulated draws", async () => {
    // Chi-square critical values at p = 0.001: df 6 → 22.458, df 9 → 27.877, df 12 → 32.909.
    for (const [n, critical] of [
      [7, 22.458],
      [10, 27.877],
      [13, 32.909],
    ] as const) {
      const draws = 13_000;
      const counts = new Array<number>(n).fill(0);
      const listHash = await hexOf(`list:${n}`);
      const competitionId = await uuidOf(`chi:${n}`);
      for (let i = 0; i < draws; i++) {
        const { winningNumber } = await deriveWinner({
          seedHex: await hexOf(`chi:${n}:${i}`),
          competitionId,
          ticketListHashHex: listHash,
          ticketCount: n,
        });
        counts[winningNumber - 1]++;
      }
      const expected = draws / n;
      const chiSquare = counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
      expect(chiSquare, `N=${n}: ${counts.join(",")}`).toBeLessThan(critical);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(draws);
    }
  });
});
