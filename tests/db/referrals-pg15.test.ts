// Referral credit under real concurrency (PostgreSQL 15, transactions in parallel): two first entries by the
// invited friend at once credit each player once; the inviter buying in the same competition at the same moment
// neither deadlocks nor loses the credit (left pending, the cron's settle_referrals finishes it).
import { describe, expect, it } from "vitest";
import { approvedAccount, competitionFields, pg15ClusterForFile } from "./pg15";

const cluster = pg15ClusterForFile(10);

async function as(sub: string, role: string, sql: string, params: unknown[] = []) {
  const client = await cluster.pool.connect();
  try {
    await client.query("begin");
    await client.query("select set_config('request.jwt.claims', $1, true), set_config('role', $2, true)", [
      JSON.stringify({ sub, role, aal: "aal2" }),
      role,
    ]);
    const res = await client.query(sql, params);
    await client.query("commit");
    return { ok: true as const, rows: res.rows };
  } catch (e) {
    await client.query("rollback");
    return { ok: false as const, error: (e as Error).message };
  } finally {
    client.release();
  }
}

describe("referral credit under concurrency", () => {
  it("credits once when the friend's first entries race, and the inviter's own entry at that moment is fine", async () => {
    const { pool } = cluster;
    const admin = await approvedAccount(pool, "admin@r.test", { role: "admin" });
    const inviter = await approvedAccount(pool, "inviter@r.test");
    const [{ code }] = (await as(inviter, "authenticated", "select (public.get_my_referrals()).code as code")).rows!;
    const friend = await approvedAccount(pool, "friend@r.test", { meta: { referral_code: code } });
    await pool.query(
      "select private.post_ledger(id, 'top_up', 20.00, 'Test', 'test', 20.00) from unnest($1::uuid[]) id",
      [[inviter, friend]],
    );
    const made = await as(admin, "authenticated", "select (public.admin_create_competition($1)).id as id", [
      competitionFields({
        title: "Referral race",
        slug: "referral-race",
        total_tickets: 100,
        max_tickets_per_user: 10,
      }),
    ]);
    const competition = made.ok ? made.rows[0].id : "";
    expect(made.ok).toBe(true);
    await as(admin, "authenticated", "select public.admin_publish_competition($1)", [competition]);
    const enter = (who: string) =>
      as(who, "authenticated", "select public.enter_competition($1, 1, '4')", [competition]);

    const results = await Promise.all([enter(friend), enter(friend), enter(inviter), enter(friend), enter(inviter)]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    await as("", "service_role", "select public.settle_referrals()");

    const rows = await pool.query(
      "select user_id, amount::text from public.credit_ledger where reference like 'referral:%' order by user_id",
    );
    expect(rows.rows.map((r) => r.amount)).toEqual(["2.50", "2.50"]);
    expect(new Set(rows.rows.map((r) => r.user_id))).toEqual(new Set([inviter, friend]));
    const [referral] = (await pool.query("select status from public.referrals where referred_id = $1", [friend])).rows;
    expect(referral.status).toBe("credited");
  });
});
