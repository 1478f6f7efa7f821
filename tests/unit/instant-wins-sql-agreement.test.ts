import { describe, expect, it } from "vitest";
import { hexToBytes } from "@/lib/crypto/bytes";
import { deriveInstantWinNumbers } from "@/lib/instant-wins/derive";
import { hexOf, migratedDatabaseForFile, uuidOf } from "./support/sql-agreement";

// private.instant_win_derive (plpgsql, pgcrypto's hmac) and deriveInstantWinNumbers (WebCrypto) must
// agree on every input, or the verification page would contradict the numbers the database awarded.
const database = migratedDatabaseForFile();

describe("the plpgsql instant-win derivation and lib/instant-wins/derive.ts agree", () => {
  it("on 400 generated inputs, including every ticket winning and a single ticket", async () => {
    const counts = [1, 2, 3, 7, 10, 64, 100, 999, 1000, 65_537, 999_983, 1_000_000];
    for (let i = 0; i < 400; i++) {
      const seedHex = await hexOf(`iw-seed:${i}`);
      const competitionId = await uuidOf(`iw-id:${i}`);
      const ticketCount = counts[i % counts.length];
      // Every ticket a winner where N is small (the rejection of repeats is exercised hard), else a few.
      const count = ticketCount <= 10 ? ticketCount : 1 + (i % 12);
      const sql = await database().query<{ numbers: number[] }>(
        "select private.instant_win_derive($1, $2, $3, $4) numbers",
        [hexToBytes(seedHex), competitionId, ticketCount, count],
      );
      const ts = await deriveInstantWinNumbers({ seedHex, competitionId, ticketCount, count });
      expect(sql.rows[0].numbers, `case ${i}`).toEqual(ts);
      expect(new Set(ts).size).toBe(count);
      expect(ts.every((n) => n >= 1 && n <= ticketCount)).toBe(true);
    }
  }, 120_000);
});
