// The 300-buyer race on a real PostgreSQL 15 server (a throwaway cluster from
// tests/db/pg15.ts), where transactions really run in parallel; PGlite runs them
// one at a time.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveWinners } from "@/lib/draws/verify";
import { approvedAccount, fundedPlayers, pg15ClusterForFile, resultAs } from "./pg15";

const cluster = pg15ClusterForFile(40);

const as = <T>(claims: Record<string, string>, role: string, sql: string, params: unknown[]) =>
  resultAs<T>(cluster.pool, claims, role, sql, params);

describe("PostgreSQL 15: concurrent buyers", () => {
  it("300 buyers racing for 100 tickets: exactly 100 sold, 1…100, no draw until its time, then one draw under racing cron runs, balances equal ledgers", async () => {
    const tag = Date.now();
    const admin = await approvedAccount(cluster.pool, `admin-${tag}@t.test`, { role: "admin" });
    const buyers = await fundedPlayers(cluster.pool, {
      prefix: `buyer-${tag}`,
      count: 300,
      credits: 5,
      name: "Race Buyer",
    });
    // A two-step verified session (aal2): admin functions refuse an aal1 one.
    const adminClaims = { sub: admin, role: "authenticated", aal: "aal2" };
    const comp = await as<{ id: string }>(
      adminClaims,
      "authenticated",
      "select to_json(public.admin_create_competition($1)) as result",
      [
        {
          title: `Race ${tag}`,
          slug: `race-${tag}`,
          prize_description: "Race prize",
          prize_value: 10,
          ticket_price: 1.5,
          total_tickets: 100,
          max_tickets_per_user: 3,
          closes_at: new Date(Date.now() + 86400_000).toISOString(),
        },
      ],
    );
    await as(adminClaims, "authenticated", "select to_json(public.admin_publish_competition($1)) as result", [comp.id]);

    const results = await Promise.allSettled(
      buyers.map((b, i) =>
        as<{ ticket_numbers: number[] }>(
          { sub: b, role: "authenticated" },
          "authenticated",
          "select public.enter_competition($1, $2) as result",
          [comp.id, 1 + (i % 3)],
        ),
      ),
    );
    const sold = results.flatMap((r) => (r.status === "fulfilled" ? r.value.ticket_numbers : []));
    expect(sold.length).toBe(100);
    expect([...sold].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    for (const r of results) {
      if (r.status === "rejected")
        expect(String((r.reason as Error).message)).toMatch(/^(This competition has sold out|Only \d+ tickets left)$/);
    }
    // The sell-out ends online sales; the draw waits for the draw time.
    const drawCount = async () =>
      (await cluster.pool.query("select count(*)::int n from public.draws where competition_id = $1", [comp.id]))
        .rows[0].n;
    expect(await drawCount()).toBe(0);
    await cluster.pool.query(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [comp.id],
    );
    // Cron runs racing each other (and an admin's run) draw it exactly once.
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 4 === 0
          ? as<{ drawn: unknown[] }>(
              adminClaims,
              "authenticated",
              "select to_json(public.run_due_draws()) as result",
              [],
            )
          : as<{ drawn: unknown[] }>(
              { role: "service_role" },
              "service_role",
              "select to_json(public.run_due_draws()) as result",
              [],
            ),
      ),
    );
    expect(
      runs.flatMap((r) => r.drawn.filter((d) => (d as { competition_id: string }).competition_id === comp.id)),
    ).toHaveLength(1);
    expect(await drawCount()).toBe(1);
    const mismatches = await cluster.pool.query(
      `
      select a.id from public.user_account_data a left join public.credit_ledger l on l.user_id = a.id
       where a.id = any($1) group by a.id, a.credits having a.credits <> coalesce(sum(l.amount), 0) or a.credits < 0`,
      [buyers],
    );
    expect(mismatches.rows).toEqual([]);
  });

  it("draws three prizes from a 1,000,000-ticket competition (online and postal numbers): its ticket-list CSV hashes to the draw's hash and every prize recomputes", async () => {
    const tag = Date.now();
    const admin = await approvedAccount(cluster.pool, `big-${tag}@t.test`, { role: "admin" });
    // A two-step verified session (aal2): admin functions refuse an aal1 one.
    const adminClaims = { sub: admin, role: "authenticated", aal: "aal2" };
    const comp = await as<{ id: string; slug: string }>(
      adminClaims,
      "authenticated",
      "select to_json(public.admin_create_competition($1)) as result",
      [
        {
          title: `Million ${tag}`,
          slug: `million-${tag}`,
          prize_description: "A big prize",
          prize_value: 100000,
          prizes: [
            { description: "A smaller prize", value: 1000 },
            { description: "The smallest prize", value: 100 },
          ],
          ticket_price: 0.25,
          total_tickets: 1_000_000,
          max_tickets_per_user: 1_000_000,
          closes_at: new Date(Date.now() + 86400_000).toISOString(),
        },
      ],
    );
    await as(adminClaims, "authenticated", "select to_json(public.admin_publish_competition($1)) as result", [comp.id]);
    // The million online tickets are made directly (a million-ticket purchase is the benchmark's business);
    // a postal entry is numbered after them. Rows right by construction, loaded as a restore loads them: without
    // the foreign-key triggers, three million look-ups that were half of this test's time.
    const loader = await cluster.pool.connect();
    try {
      await loader.query("begin");
      await loader.query("set local session_replication_role = replica");
      await loader.query(
        `with e as (insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
                    values ($1, $2, 'paid', 1000000, 0.25, 250000, 1) returning id)
         insert into public.tickets (competition_id, number, entry_id, user_id)
         select $1, n, e.id, $2 from e, generate_series(1, 1000000) n`,
        [comp.id, admin],
      );
      await loader.query("commit");
    } catch (error) {
      await loader.query("rollback");
      throw error;
    } finally {
      loader.release();
    }
    await cluster.pool.query(
      "update public.competitions set tickets_sold = 1000000, status = 'sold_out' where id = $1",
      [comp.id],
    );
    const postal = await as<{ ticket_numbers: number[] }>(
      adminClaims,
      "authenticated",
      "select to_json(public.admin_record_postal_entry($1, null, 'Margaret Holt', '14 Orchard Road, Harrogate HG1 2AB', null)) as result",
      [comp.id],
    );
    expect(postal.ticket_numbers).toEqual([1_000_001, 1_000_002, 1_000_003, 1_000_004]);
    await cluster.pool.query(
      `update public.competitions set opens_at = now() - interval '3 days', closes_at = now() - interval '2 days',
              postal_deadline = now() - interval '1 day', draw_at = now() - interval '1 second' where id = $1`,
      [comp.id],
    );
    const started = performance.now();
    const run = await as<{ drawn: unknown[] }>(
      { role: "service_role" },
      "service_role",
      "select to_json(public.run_due_draws()) as result",
      [],
    );
    console.log(`PostgreSQL 15: 1,000,004-ticket three-prize draw in ${Math.round(performance.now() - started)} ms`);
    expect(run.drawn).toHaveLength(1);
    const draws = (
      await cluster.pool.query(
        `select ticket_count, ticket_list_hash, seed_hex, counter, winning_position, winning_number, prize_position
           from public.draws where competition_id = $1 order by prize_position`,
        [comp.id],
      )
    ).rows;
    expect(draws.map((d) => d.prize_position)).toEqual([1, 2, 3]);
    expect(new Set(draws.map((d) => d.winning_number)).size).toBe(3);
    const [draw] = draws;
    expect(draw.ticket_count).toBe(1_000_004);
    const hash = createHash("sha256");
    let after = 0;
    for (;;) {
      const part = await as<{ csv: string; last_number: number; done: boolean }>(
        {},
        "anon",
        "select to_json(public.get_ticket_list_csv($1, $2)) as result",
        [comp.slug, after],
      );
      hash.update(part.csv, "utf8");
      if (part.done) break;
      after = part.last_number;
    }
    expect(hash.digest("hex")).toBe(draw.ticket_list_hash);
    // Every prize from the revealed seed, as the browser recomputes it; here a row's number is its place in the list
    // (1 to 1,000,000 online, then the four postal tickets).
    const winners = await deriveWinners(
      {
        seedHex: draw.seed_hex,
        competitionId: comp.id,
        ticketListHashHex: draw.ticket_list_hash,
        externalHex: null,
        ticketCount: draw.ticket_count,
      },
      3,
    );
    expect(winners.map((w) => [w.counter, w.winningNumber])).toEqual(draws.map((d) => [d.counter, d.winning_position]));
    expect(draws.map((d) => d.winning_number)).toEqual(winners.map((w) => w.winningNumber));
  }, 300_000);
});
