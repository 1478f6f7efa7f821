// Payments and limits under real concurrency, on a throwaway PostgreSQL 15 cluster
// (tests/db/pg15.ts) where transactions run in parallel, which PGlite cannot do:
// a confirmation delivered 100 times at once credits once, a refund racing its
// confirmation leaves one consistent ledger, and the monthly limit and the
// credit-card cap hold against 50 simultaneous top-ups, entries and confirmations.
import { describe, expect, it } from "vitest";
import { approvedAccount, attemptAs, pg15ClusterForFile, type Outcome } from "./pg15";
import { LEDGER_MISMATCH_SQL } from "./support";

const cluster = pg15ClusterForFile(40);
let userCount = 0;

/**
 * One call in its own transaction, as the API gateway makes it. A signed-in caller has a fully signed-in session
 * (aal2), as in tests/db/support.ts: the admin below needs it for the admin functions.
 */
const call = <T>(role: "authenticated" | "service_role", sub: string | null, sql: string, params: unknown[]) =>
  attemptAs<T>(cluster.pool, sub ? { sub, role, aal: "aal2" } : { role }, role, sql, params);

const asPlayer = <T>(uid: string, sql: string, params: unknown[]) => call<T>("authenticated", uid, sql, params);
const asServer = <T>(sql: string, params: unknown[]) => call<T>("service_role", null, sql, params);

async function player(credits = 0): Promise<string> {
  userCount += 1;
  const id = await approvedAccount(cluster.pool, `pay-${Date.now()}-${userCount}@t.test`, {
    meta: { name: "Pay Racer" },
  });
  if (credits)
    await cluster.pool.query("select private.post_ledger($1, 'top_up', $2, 'Test', 'test', $2)", [id, credits]);
  return id;
}

async function createTopUp(uid: string, amount: number): Promise<string> {
  const r = await asPlayer<{ id: string }>(uid, "select public.create_top_up($1, 'test') as result", [amount]);
  if (!r.ok) throw new Error(r.message);
  return r.value.id;
}

const confirm = (id: string, paymentId: string, funding: string, amount: number) =>
  asServer<{ status: string }>("select public.confirm_top_up($1, $2, $3, $4) as result", [
    id,
    paymentId,
    funding,
    amount,
  ]);

async function stateOf(uid: string) {
  const { rows } = await cluster.pool.query(
    `select a.credits::text as credits,
            (select coalesce(sum(amount), 0)::text from public.credit_ledger where user_id = a.id) as ledger_sum,
            (select coalesce(json_agg(kind || ' ' || amount order by id), '[]') from public.credit_ledger where user_id = a.id) as rows
       from public.user_account_data a where a.id = $1`,
    [uid],
  );
  return rows[0] as { credits: string; ledger_sum: string; rows: string[] };
}

const count = <T>(results: Outcome<T>[], pick: (r: Outcome<T>) => boolean) => results.filter(pick).length;

describe("PostgreSQL 15: payments under concurrency", () => {
  it("the same confirmation 100 times at once credits once", async () => {
    const p = await player();
    const id = await createTopUp(p, 60);
    const results = await Promise.all(Array.from({ length: 100 }, () => confirm(id, "pi_race_same", "debit", 60)));
    expect(count(results, (r) => r.ok && r.value.status === "credited")).toBe(1);
    expect(count(results, (r) => r.ok && r.value.status === "already_credited")).toBe(99);
    expect(await stateOf(p)).toEqual({
      credits: "61.50",
      ledger_sum: "61.50",
      rows: ["top_up 60.00", "bonus 1.50"],
    });
    const mails = await cluster.pool.query("select count(*)::int as n from public.mail_outbox where to_user = $1", [p]);
    expect(mails.rows[0].n).toBe(1);
  });

  it("20 different payments racing for one top-up: one credits, the rest are payment_mismatch", async () => {
    const p = await player();
    const id = await createTopUp(p, 10);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => confirm(id, `pi_race_${i}`, "debit", 10)));
    expect(count(results, (r) => r.ok && r.value.status === "credited")).toBe(1);
    expect(count(results, (r) => !r.ok && r.hint === "payment_mismatch")).toBe(19);
    expect((await stateOf(p)).credits).toBe("10.00");
  });

  it("a refund racing its confirmation (both delivered 20 times) leaves one consistent ledger", async () => {
    const p = await player();
    const id = await createTopUp(p, 30);
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? confirm(id, "pi_race_refund", "debit", 30)
        : asServer("select public.record_top_up_refund('pi_race_refund', 're_race', 30) as result", []),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(await stateOf(p)).toEqual({
      credits: "0.00",
      ledger_sum: "0.00",
      rows: ["top_up 30.00", "top_up_reversal -30.00"],
    });
    const refunds = await cluster.pool.query(
      "select applied_at is not null as applied from public.top_up_refunds where refund_id = 're_race'",
    );
    expect(refunds.rows).toEqual([{ applied: true }]);
  });

  it("two partial refunds racing their confirmation take back the money and exactly the whole bonus", async () => {
    const p = await player();
    const id = await createTopUp(p, 60); // £1.50 bonus
    const calls = Array.from({ length: 40 }, (_, i) =>
      i % 2
        ? confirm(id, "pi_race_parts", "debit", 60)
        : asServer("select public.record_top_up_refund('pi_race_parts', $1, $2) as result", [
            i % 4 ? "re_race_a" : "re_race_b",
            i % 4 ? 20 : 40,
          ]),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    // Whichever refund comes first, £20 carries £0.50 of bonus and £40 carries £1.00.
    const state = await stateOf(p);
    expect({ ...state, rows: [...state.rows].sort() }).toEqual({
      credits: "0.00",
      ledger_sum: "0.00",
      rows: [
        "bonus 1.50",
        "top_up 60.00",
        "top_up_reversal -0.50",
        "top_up_reversal -1.00",
        "top_up_reversal -20.00",
        "top_up_reversal -40.00",
      ],
    });
    const refunds = await cluster.pool.query(
      "select refund_id, bonus::text, reversed::text, owed::text from public.top_up_refunds where payment_id = 'pi_race_parts' order by refund_id",
    );
    expect(refunds.rows).toEqual([
      { refund_id: "re_race_a", bonus: "0.50", reversed: "20.50", owed: "0.00" },
      { refund_id: "re_race_b", bonus: "1.00", reversed: "41.00", owed: "0.00" },
    ]);
  });

  it("50 simultaneous top-ups never exceed the monthly limit", async () => {
    const p = await player();
    await asPlayer(p, "select public.set_monthly_limit(100) as result", []);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => asPlayer(p, "select public.create_top_up(10, 'test') as result", [])),
    );
    expect(count(results, (r) => r.ok)).toBe(10);
    expect(count(results, (r) => !r.ok && r.hint === "monthly_limit_reached")).toBe(40);
    const { rows } = await cluster.pool.query(
      "select sum(amount)::text as total from public.top_ups where user_id = $1",
      [p],
    );
    expect(rows[0].total).toBe("100.00");
  });

  it("50 simultaneous entries never spend more than the monthly limit", async () => {
    const admin = await player();
    await cluster.pool.query("update public.user_account_data set role = 'admin' where id = $1", [admin]);
    const created = await asPlayer<{ id: string }>(
      admin,
      "select to_json(public.admin_create_competition($1)) as result",
      [
        {
          title: `Limit race ${Date.now()}`,
          prize_description: "Prize",
          prize_value: 10,
          ticket_price: 2,
          total_tickets: 1000,
          max_tickets_per_user: 1000,
          closes_at: new Date(Date.now() + 86400_000).toISOString(),
        },
      ],
    );
    if (!created.ok) throw new Error(created.message);
    await asPlayer(admin, "select to_json(public.admin_publish_competition($1)) as result", [created.value.id]);
    const p = await player(500);
    await asPlayer(p, "select public.set_monthly_limit(20) as result", []);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        asPlayer(p, "select public.enter_competition($1, 1) as result", [created.value.id]),
      ),
    );
    expect(count(results, (r) => r.ok)).toBe(10);
    expect(count(results, (r) => !r.ok && r.hint === "monthly_limit_reached")).toBe(40);
    expect(await stateOf(p)).toMatchObject({ credits: "480.00", ledger_sum: "480.00" });
  });

  it("50 simultaneous credit-card confirmations hold the £250 cap", async () => {
    const p = await player();
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await createTopUp(p, 10));
    const results = await Promise.all(ids.map((id) => confirm(id, `pi_cap_${id}`, "credit", 10)));
    expect(count(results, (r) => r.ok && r.value.status === "credited")).toBe(25);
    expect(count(results, (r) => r.ok && r.value.status === "refund_required")).toBe(25);
    expect((await stateOf(p)).credits).toBe("250.00");
  });

  it("balances equal ledgers and none is below zero", async () => {
    expect((await cluster.pool.query(LEDGER_MISMATCH_SQL)).rows).toEqual([]);
    const negative = await cluster.pool.query("select id from public.user_account_data where credits < 0");
    expect(negative.rows).toEqual([]);
  });
});
