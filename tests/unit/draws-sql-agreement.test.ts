import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes, sha256 } from "@/lib/crypto/bytes";
import { deriveWinner, deriveWinners, pick, verifyDraw, type PublishedDraw } from "@/lib/draws/verify";
import { hexOf, migratedDatabaseForFile, uuidOf } from "./support/sql-agreement";

// private.draw_derive (plpgsql, pgcrypto) and deriveWinner (WebCrypto) must agree
// on every input, or the verification page would contradict the real draw.
const database = migratedDatabaseForFile();

describe("the plpgsql draw and lib/draws/verify.ts agree", () => {
  it("on 400 generated inputs", async () => {
    const counts = [1, 2, 3, 5, 7, 10, 64, 100, 999, 1000, 4096, 65_537, 999_983, 1_000_000, 123_456_789, 2 ** 31 - 1];
    for (let i = 0; i < 400; i++) {
      const seedHex = await hexOf(`agree-seed:${i}`);
      const competitionId = await uuidOf(`agree-id:${i}`);
      const listHex = await hexOf(`agree-list:${i}`);
      const externalHex = i % 3 === 0 ? null : (await hexOf(`agree-ext:${i}`)).slice(0, 2 * (1 + (i % 32)));
      const ticketCount = counts[i % counts.length];
      const sql = await database().query<{ counter: number; winning_number: number }>(
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
  });

  it("on every prize of 120 generated several-prize draws, down to as many prizes as tickets", async () => {
    for (let i = 0; i < 120; i++) {
      const seedHex = await hexOf(`prizes-seed:${i}`);
      const competitionId = await uuidOf(`prizes-id:${i}`);
      const listHex = await hexOf(`prizes-list:${i}`);
      const externalHex = i % 2 === 0 ? null : (await hexOf(`prizes-ext:${i}`)).slice(0, 8);
      const ticketCount = [2, 3, 5, 10, 1000, 999_983][i % 6];
      const prizes = Math.min(ticketCount, 1 + (i % 10));
      const sql = await database().query<{ prize_position: number; counter: number; winning_number: number }>(
        "select prize_position, counter, winning_number from private.draw_derive_prizes($1, $2, $3, $4, $5, $6)",
        [
          hexToBytes(seedHex),
          competitionId,
          hexToBytes(listHex),
          externalHex === null ? null : hexToBytes(externalHex),
          ticketCount,
          prizes,
        ],
      );
      const ts = await deriveWinners(
        { seedHex, competitionId, ticketListHashHex: listHex, externalHex, ticketCount },
        prizes,
      );
      expect(
        sql.rows.map((r) => ({ counter: r.counter, winningNumber: r.winning_number })),
        `case ${i}`,
      ).toEqual(ts);
      expect(sql.rows.map((r) => r.prize_position)).toEqual(ts.map((_, k) => k + 1));
      expect(new Set(ts.map((w) => w.winningNumber)).size).toBe(prizes);
    }
  });

  it("on the rejection boundary", async () => {
    const two48 = 2 ** 48;
    for (const n of [1, 3, 7, 1000, 999_983, 2 ** 31 - 1]) {
      const limit = two48 - (two48 % n);
      for (const x of [0, 1, n - 1, n, limit - 1, limit, two48 - 1]) {
        const sql = await database().query<{ w: number | null }>("select private.draw_pick($1::bigint, $2) w", [
          String(x),
          n,
        ]);
        expect(sql.rows[0].w, `x=${x} n=${n}`).toBe(pick(x, n));
      }
    }
  });
});

// labcash-draw-v2 end to end in SQL: competitions with gaps in their numbers (unsold online tickets,
// postal tickets after the pool) are drawn by private.draw_competition; the ticket-list CSV read back
// in chunks through get_ticket_list_csv must hash to the draw's ticket_list_hash, and verifyDraw must
// find the same position, number and ticket.
describe("labcash-draw-v2: the SQL draw and verifyDraw agree", () => {
  /** A published competition past its draw time, with tickets numbered `numbers`; returns its id and slug. */
  async function drawnCompetition(label: string, total: number, numbers: number[]) {
    const slug = `agree-v2-${label}`;
    const { rows } = await database().query<{ id: string }>(
      `insert into public.competitions (slug, title, prize_description, prize_value, ticket_price, total_tickets,
         max_tickets_per_user, opens_at, closes_at, postal_deadline, draw_at, status, seed_commitment, published_at,
         tickets_sold, postal_tickets)
       values ($1, $2, 'A prize', 10, 1, $3, $3, now() - interval '2 hours', now() - interval '1 hour',
               now() - interval '1 hour', now() - interval '1 hour', 'live', repeat('0', 64), now(), $4, $5)
       returning id`,
      [
        slug,
        `Agree ${label}`,
        total,
        numbers.filter((n) => n <= total).length,
        numbers.filter((n) => n > total).length,
      ],
    );
    const id = rows[0].id;
    await database().query(
      `with s as (select extensions.gen_random_bytes(32) seed)
       insert into public.competition_seeds (competition_id, seed) select $1, seed from s`,
      [id],
    );
    await database().query(
      `update public.competitions c set seed_commitment = encode(extensions.digest(s.seed, 'sha256'), 'hex')
         from public.competition_seeds s where s.competition_id = c.id and c.id = $1`,
      [id],
    );
    for (const n of numbers) {
      const kind = n > total ? "postal" : "paid";
      await database().query(
        `with e as (insert into public.entries (competition_id, kind, quantity, unit_price, amount, first_ticket)
                    values ($1, $2, 1, $3, $3, $4) returning id)
         insert into public.tickets (competition_id, number, entry_id) select $1, $4, e.id from e`,
        [id, kind, kind === "paid" ? 1 : 0, n],
      );
    }
    const drawn = await database().query<{ id: string }>("select private.draw_competition($1, 'draw_time') id", [id]);
    return { id, slug, drawId: drawn.rows[0].id };
  }

  async function ticketListCsvFromSql(slug: string, chunk: number): Promise<string> {
    let csv = "";
    let after = 0;
    for (;;) {
      const { rows } = await database().query<{ r: { csv: string; last_number: number | null; done: boolean } }>(
        "select to_json(public.get_ticket_list_csv($1, $2, $3)) r",
        [slug, after, chunk],
      );
      csv += rows[0].r.csv;
      if (rows[0].r.done || rows[0].r.last_number === null) return csv;
      after = rows[0].r.last_number;
    }
  }

  it("on competitions with gaps and postal tickets, read back in chunks", async () => {
    const cases: [string, number, number[]][] = [
      ["single", 10, [4]],
      ["postal-only", 5, [6, 7, 8]],
      ["gaps", 60, [...Array.from({ length: 60 }, (_, i) => i + 1).filter((n) => n % 5 !== 2), 61, 62, 63, 64]],
      ["sparse", 1000, [3, 17, 250, 251, 999, 1001, 1002]],
      ["dense", 300, Array.from({ length: 300 }, (_, i) => i + 1)],
    ];
    for (const [label, total, numbers] of cases) {
      const { slug, drawId } = await drawnCompetition(label, total, numbers);
      const draw = (await database().query<{ d: PublishedDraw }>("select public.get_draw($1) d", [drawId])).rows[0].d;
      expect(draw.algorithm, label).toBe("labcash-draw-v2");
      expect(draw.tickets).toBeNull();
      for (const chunk of [1, 2, 100_000]) {
        const csv = await ticketListCsvFromSql(slug, chunk);
        expect(csv.split("\n").length - 2, `${label}: rows`).toBe(numbers.length);
        expect(bytesToHex(await sha256(csv)), `${label}: hash, chunks of ${chunk}`).toBe(draw.ticket_list_hash);
        const result = await verifyDraw(draw, { ticketList: csv });
        expect(
          result.checks.filter((c) => !c.ok),
          label,
        ).toEqual([]);
        expect(result.ok).toBe(true);
        expect(numbers[result.winningPosition! - 1]).toBe(draw.winning_number);
      }
    }
  });
});
