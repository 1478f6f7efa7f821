import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { bytesToHex, deriveWinner, hexToBytes, pick, sha256 } from "@/lib/draws/verify";
import { openDatabase } from "@/supabase/embedded/db";

// private.draw_derive (plpgsql, pgcrypto) and deriveWinner (WebCrypto) must agree
// on every input, or the verification page would contradict the real draw.
let db: PGlite;

beforeAll(async () => {
  db = await openDatabase({ seed: false });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

const hexOf = async (label: string) => bytesToHex(await sha256(label));

describe("the plpgsql draw and lib/draws/verify.ts agree", () => {
  it("on 400 generated inputs", async () => {
    const counts = [1, 2, 3, 5, 7, 10, 64, 100, 999, 1000, 4096, 65_537, 999_983, 1_000_000, 123_456_789, 2 ** 31 - 1];
    for (let i = 0; i < 400; i++) {
      const seedHex = await hexOf(`agree-seed:${i}`);
      const idHex = await hexOf(`agree-id:${i}`);
      const competitionId = `${idHex.slice(0, 8)}-${idHex.slice(8, 12)}-${idHex.slice(12, 16)}-${idHex.slice(16, 20)}-${idHex.slice(20, 32)}`;
      const listHex = await hexOf(`agree-list:${i}`);
      const externalHex = i % 3 === 0 ? null : (await hexOf(`agree-ext:${i}`)).slice(0, 2 * (1 + (i % 32)));
      const ticketCount = counts[i % counts.length];
      const sql = await db.query<{ counter: number; winning_number: number }>(
        "select counter, winning_number from private.draw_derive($1, $2, $3, $4, $5)",
        [
          hexToBytes(seedHex),
          competitionId,
          hexToBytes(listHex),
          externalHex === null ? null : hexToBytes(externalHex),
          ticketCount,
        ],
      );
      const ts = await deriveWinner({ seedHex, competitionId, ticketListHashHex: listHex, externalHex, ticketCount });
      expect({ counter: sql.rows[0].counter, winningNumber: sql.rows[0].winning_number }, `case ${i}`).toEqual(ts);
    }
  }, 60_000);

  it("on the rejection boundary", async () => {
    const two48 = 2 ** 48;
    for (const n of [1, 3, 7, 1000, 999_983, 2 ** 31 - 1]) {
      const limit = two48 - (two48 % n);
      for (const x of [0, 1, n - 1, n, limit - 1, limit, two48 - 1]) {
        const sql = await db.query<{ w: number | null }>("select private.draw_pick($1::bigint, $2) w", [String(x), n]);
        expect(sql.rows[0].w, `x=${x} n=${n}`).toBe(pick(x, n));
      }
    }
  });
});
