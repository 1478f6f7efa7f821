// The 300-buyer race on a real PostgreSQL 15 server (a throwaway cluster from
// tests/db/pg15.ts), where transactions really run in parallel; PGlite runs them
// one at a time.
import { describe, expect, it } from "vitest";
import { pg15ClusterForFile } from "./pg15";

const cluster = pg15ClusterForFile(40);

async function as<T>(claims: Record<string, string>, role: string, sql: string, params: unknown[]): Promise<T> {
  const client = await cluster.pool.connect();
  try {
    await client.query("begin");
    await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
    await client.query(`set local role ${role}`);
    const res = await client.query(sql, params);
    await client.query("commit");
    return res.rows[0]?.result as T;
  } catch (e) {
    await client.query("rollback");
    throw e;
  } finally {
    client.release();
  }
}

describe("PostgreSQL 15: concurrent buyers", () => {
  it("300 buyers racing for 100 tickets: exactly 100 sold, 1…100, one draw, balances equal ledgers", async () => {
    const tag = Date.now();
    const admin = (
      await cluster.pool.query("insert into auth.users (email) values ($1) returning id", [`admin-${tag}@t.test`])
    ).rows[0].id;
    await cluster.pool.query("update public.user_account_data set role = 'admin', approved = true where id = $1", [
      admin,
    ]);
    const buyers: string[] = (
      await cluster.pool.query(
        "insert into auth.users (email, raw_user_meta_data) select 'buyer-' || $1 || '-' || n || '@t.test', '{\"name\":\"Race Buyer\"}' from generate_series(1, 300) n returning id",
        [tag],
      )
    ).rows.map((r) => r.id);
    await cluster.pool.query("update public.user_account_data set approved = true where id = any($1)", [buyers]);
    await cluster.pool.query(
      "select private.post_ledger(id, 'top_up', 5.00, 'Test', 'test', 5.00) from unnest($1::uuid[]) id",
      [buyers],
    );
    const adminClaims = { sub: admin, role: "authenticated" };
    const comp = await as<{ id: string }>(
      adminClaims,
      "authenticated",
      "select public.admin_create_competition($1) as result",
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
    await as(adminClaims, "authenticated", "select public.admin_publish_competition($1) as result", [comp.id]);

    const results = await Promise.allSettled(
      buyers.map((b, i) =>
        as<{ ticket_numbers: number[]; drawn: boolean }>(
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
    expect(results.filter((r) => r.status === "fulfilled" && r.value.drawn).length).toBe(1);
    for (const r of results) {
      if (r.status === "rejected")
        expect(String((r.reason as Error).message)).toMatch(/^(This competition has sold out|Only \d+ tickets left)$/);
    }
    const draws = await cluster.pool.query("select count(*)::int n from public.draws where competition_id = $1", [
      comp.id,
    ]);
    expect(draws.rows[0].n).toBe(1);
    const mismatches = await cluster.pool.query(
      `
      select a.id from public.user_account_data a left join public.credit_ledger l on l.user_id = a.id
       where a.id = any($1) group by a.id, a.credits having a.credits <> coalesce(sum(l.amount), 0) or a.credits < 0`,
      [buyers],
    );
    expect(mismatches.rows).toEqual([]);
  }, 120_000);
});
