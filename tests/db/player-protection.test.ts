// Player protection (code of practice 1.6, 1.7): flags raised by SQL (each kind once and only
// once), the review queue, interventions (audited) and the restriction enforced on top-ups, entries and marketing.
// Real PGlite.
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_REQUIRED, anon, asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

type Flag = {
  id: string;
  user: { id: string; name: string; email: string | null };
  kind: string;
  details: Record<string, unknown>;
  status: string;
  review_note: string | null;
  reviewed_by_name: string | null;
  intervention_kind: string | null;
};

let admin: string;
let competition: string;
let payments = 0;

beforeAll(async () => {
  admin = await db().createAdmin();
  competition = await db().createCompetition(admin, { total_tickets: 1000, max_tickets_per_user: 500 });
});

const raise = () => db().call<{ raised: number }>(service, "raise_player_flags");
const flagsOf = (uid: string) =>
  db().sql<{ id: string; kind: string; period: string; details: Record<string, unknown>; status: string }>(
    "select id, kind, period, details, status from public.player_flags where user_id = $1 order by raised_at, kind",
    [uid],
  );
const setLimit = (uid: string, limit: number | null) => db().call(asUser(uid), "set_monthly_limit", { p_limit: limit });
const enter = (uid: string, quantity: number) =>
  db().call(asUser(uid), "enter_competition", { p_competition_id: competition, p_quantity: quantity, p_answer: "4" });
/** A top-up created by the player and confirmed by the server (debit card). */
async function topUp(uid: string, amount: number) {
  const t = await db().call<{ id: string }>(asUser(uid), "create_top_up", { p_amount: amount, p_provider: "test" });
  payments += 1;
  await db().call(service, "confirm_top_up", {
    p_top_up_id: t.id,
    p_payment_id: `pi_protect_${payments}`,
    p_funding: "debit",
    p_amount_paid: amount,
  });
  return t.id;
}
const intervene = (uid: string, kind: string, note = "Spoke to the player about their play") =>
  db().call<{ id: string; kind: string }>(asUser(admin), "admin_record_intervention", {
    p_user_id: uid,
    p_kind: kind,
    p_note: note,
  });

describe("flags raised by SQL, each once", () => {
  it("the monthly limit reached (spent this month at the limit)", async () => {
    const p = await db().createPlayer({ credits: 20 });
    await setLimit(p, 5);
    await enter(p, 4);
    await raise();
    expect(await flagsOf(p)).toEqual([]);
    await enter(p, 1);
    await raise();
    await raise();
    const flags = await flagsOf(p);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: "limit_reached", status: "open", details: { limit: 5, spent: 5 } });
    // Audited once, by nobody: the database raised it.
    const log = await db().sql(
      "select actor_id, details from public.activity_log where action = 'protection.flag_raised' and subject_id = $1",
      [p],
    );
    expect(log).toEqual([{ actor_id: null, details: { flag_id: flags[0].id, kind: "limit_reached" } }]);
  });

  it("a £0 limit is not 'reached'; a player with no limit is never flagged for it", async () => {
    const zero = await db().createPlayer({ credits: 5 });
    await setLimit(zero, 0);
    const none = await db().createPlayer({ credits: 5 });
    await enter(none, 5);
    await raise();
    expect(await flagsOf(zero)).toEqual([]);
    expect(await flagsOf(none)).toEqual([]);
  });

  it("three requests to raise the limit in 30 days (a higher limit, or none)", async () => {
    const p = await db().createPlayer();
    await setLimit(p, 10); // first limit: not a raise
    await setLimit(p, 20); // raise 1
    await setLimit(p, 15); // a decrease
    await setLimit(p, 30); // raise 2
    await raise();
    expect(await flagsOf(p)).toEqual([]);
    await setLimit(p, null); // raise 3: removing the limit
    await raise();
    await setLimit(p, 40); // from no limit: not a raise
    await setLimit(p, 50); // raise 4, still the same burst
    await raise();
    const flags = await flagsOf(p);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: "limit_raises", details: { requests: 3, limit: null } });
  });

  it("confirmed top-ups over £1,000 in 24 hours", async () => {
    const p = await db().createPlayer();
    await topUp(p, 600);
    await raise();
    expect(await flagsOf(p)).toEqual([]);
    // A pending top-up does not count.
    await db().call(asUser(p), "create_top_up", { p_amount: 900, p_provider: "test" });
    await raise();
    expect(await flagsOf(p)).toEqual([]);
    await topUp(p, 401);
    await topUp(p, 600);
    await raise();
    await raise();
    const flags = await flagsOf(p);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: "large_top_ups", details: { total: 1001, top_ups: 2 } });
  });

  it("a break ended and a top-up of £100 or more within a day", async () => {
    const small = await db().createPlayer();
    const large = await db().createPlayer();
    for (const p of [small, large]) {
      await db().call(asUser(p), "take_break", { p_period: "1 week" });
      // The week has passed: the break ended an hour ago.
      await db().sql(
        "update public.player_protections set break_until = now() - interval '1 hour' where user_id = $1",
        [p],
      );
      await db().sql(
        `update public.activity_log set details = jsonb_build_object('until', now() - interval '1 hour')
          where action = 'protections.break' and subject_id = $1`,
        [p],
      );
    }
    await topUp(small, 99.99);
    const topUpId = await topUp(large, 100);
    await topUp(large, 150);
    await raise();
    await raise();
    expect(await flagsOf(small)).toEqual([]);
    const flags = await flagsOf(large);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      kind: "top_up_after_break",
      details: { break_kind: "break", top_up_id: topUpId, amount: 100 },
    });
  });

  it("only the server raises flags on its own; the review queue raises them for admins as it reads", async () => {
    for (const caller of [anon, asUser(await db().createPlayer()), asUser(admin)]) {
      const res = await db().rpc(caller, "raise_player_flags");
      expect(res.error?.message).toMatch(/permission denied/);
    }
    const p = await db().createPlayer({ credits: 3 });
    await setLimit(p, 3);
    await enter(p, 3);
    const queue = await db().call<Flag[]>(asUser(admin), "admin_list_player_flags", { p_status: "open" });
    expect(queue.filter((f) => f.user.id === p).map((f) => f.kind)).toEqual(["limit_reached"]);
  });
});

describe("reviews and interventions", () => {
  it("an admin reviews a flag with a note and an intervention; once only; audited", async () => {
    const p = await db().createPlayer({ credits: 2 });
    await setLimit(p, 2);
    await enter(p, 2);
    await raise();
    const [flag] = await flagsOf(p);

    expect(
      await attempt(db().call(asUser(admin), "admin_review_player_flag", { p_flag_id: flag.id, p_note: "ok" })),
    ).toMatchObject({ ok: false, hint: "invalid_input" });
    const reviewed = await db().call<Flag>(asUser(admin), "admin_review_player_flag", {
      p_flag_id: flag.id,
      p_note: "Phoned the player; they are fine and keep their limit.",
      p_intervention: "contacted",
    });
    expect(reviewed).toMatchObject({
      status: "reviewed",
      review_note: "Phoned the player; they are fine and keep their limit.",
      reviewed_by_name: "Ada Admin",
      intervention_kind: "contacted",
    });
    expect(
      await attempt(
        db().call(asUser(admin), "admin_review_player_flag", { p_flag_id: flag.id, p_note: "Again, twice" }),
      ),
    ).toMatchObject({ ok: false, hint: "flag_already_reviewed" });
    expect(
      await attempt(
        db().call(asUser(admin), "admin_review_player_flag", {
          p_flag_id: "00000000-0000-0000-0000-000000000000",
          p_note: "No such flag",
        }),
      ),
    ).toMatchObject({ ok: false, hint: "flag_not_found" });

    const reviewedList = await db().call<Flag[]>(asUser(admin), "admin_list_player_flags", { p_status: "reviewed" });
    expect(reviewedList.find((f) => f.id === flag.id)).toMatchObject({ status: "reviewed" });
    const open = await db().call<Flag[]>(asUser(admin), "admin_list_player_flags", {});
    expect(open.find((f) => f.id === flag.id)).toBeUndefined();

    const record = await db().call<{ flags: Flag[]; interventions: { kind: string; note: string }[] }>(
      asUser(admin),
      "admin_get_player_protection",
      { p_user_id: p },
    );
    expect(record.flags.map((f) => f.status)).toEqual(["reviewed"]);
    expect(record.interventions).toMatchObject([{ kind: "contacted" }]);
    const actions = await db().sql<{ action: string; actor_id: string }>(
      `select action, actor_id from public.activity_log
        where subject_id = $1 and action like 'protection.%' and actor_id is not null order by id`,
      [p],
    );
    expect(actions).toEqual([
      { action: "protection.intervention", actor_id: admin },
      { action: "protection.flag_reviewed", actor_id: admin },
    ]);
  });

  it("a restriction refuses top-ups and entries with the code `restricted` and stops marketing; lifting it ends that", async () => {
    const p = await db().createPlayer({ credits: 10 });
    await db().sql("update public.profiles set marketing_consent = true where id = $1", [p]);
    const marketing = async () =>
      (await db().sql<{ ok: boolean }>("select private.may_receive_marketing($1) as ok", [p]))[0].ok;
    expect(await marketing()).toBe(true);

    expect(await intervene(p, "restricted", "Restricted while we check their top-ups")).toMatchObject({
      kind: "restricted",
    });
    const refusal = { ok: false, hint: "restricted", message: "Your account is restricted: please contact us" };
    expect(await attempt(db().call(asUser(p), "create_top_up", { p_amount: 10, p_provider: "test" }))).toMatchObject(
      refusal,
    );
    expect(await attempt(enter(p, 1))).toMatchObject(refusal);
    expect(await db().call(asUser(p), "quote_top_up", { p_amount: 10 })).toMatchObject({
      refusal: { code: "restricted" },
    });
    expect(await marketing()).toBe(false);
    expect(await db().credits(p)).toBe(10);

    await intervene(p, "lifted", "Checked: the restriction is lifted");
    await enter(p, 1);
    await db().call(asUser(p), "create_top_up", { p_amount: 10, p_provider: "test" });
    expect(await marketing()).toBe(true);
    expect(await attempt(intervene(p, "lifted", "Lift twice"))).toMatchObject({ ok: false, hint: "not_restricted" });

    const log = await db().sql<{ kind: string }>(
      `select details ->> 'kind' as kind from public.activity_log
        where action = 'protection.intervention' and subject_id = $1 and actor_id = $2 order by id`,
      [p, admin],
    );
    expect(log.map((r) => r.kind)).toEqual(["restricted", "lifted"]);
  });

  it("closing an account as an intervention closes it as the player would", async () => {
    const p = await db().createPlayer({ credits: 5 });
    await intervene(p, "closed", "Closed at the player's request by phone");
    expect(await attempt(enter(p, 1))).toMatchObject({ ok: false, hint: "account_closed" });
    expect(await db().call(asUser(p), "get_my_protections")).toMatchObject({ state: "closed" });
  });

  it("checks the input, refuses one's own account, and refuses players and anon", async () => {
    const p = await db().createPlayer();
    expect(await attempt(intervene(p, "banned"))).toMatchObject({ ok: false, hint: "invalid_input" });
    expect(await attempt(intervene(p, "note", " x "))).toMatchObject({ ok: false, hint: "invalid_input" });
    expect(
      await attempt(
        db().call(asUser(admin), "admin_record_intervention", { p_user_id: admin, p_kind: "note", p_note: "Myself" }),
      ),
    ).toMatchObject({ ok: false, hint: "self_change_refused" });
    expect(
      await attempt(
        db().call(asUser(admin), "admin_record_intervention", {
          p_user_id: "00000000-0000-0000-0000-000000000000",
          p_kind: "note",
          p_note: "Nobody",
        }),
      ),
    ).toMatchObject({ ok: false, hint: "user_not_found" });
    for (const [caller, error] of [
      [asUser(p), ADMIN_REQUIRED],
      [anon, null],
    ] as const) {
      for (const [fn, args] of [
        ["admin_record_intervention", { p_user_id: p, p_kind: "restricted", p_note: "Not allowed" }],
        ["admin_list_player_flags", {}],
        ["admin_get_player_protection", { p_user_id: p }],
      ] as const) {
        const res = await db().rpc(caller, fn, args);
        if (error) expect(res.error).toMatchObject(error);
        else expect(res.error?.message).toMatch(/permission denied/);
      }
    }
    expect((await db().sql("select * from public.player_interventions where user_id = $1", [p])).length).toBe(0);
  });
});

describe("the users list and the dashboard", () => {
  it("filters users by an open flag and counts flagged players", async () => {
    const p = await db().createPlayer({ credits: 1 });
    await setLimit(p, 1);
    await enter(p, 1);
    await raise();
    const page = await db().call<{ rows: { id: string; open_flags: number }[] }>(asUser(admin), "admin_list_users", {
      p_flagged: true,
      p_limit: 100,
    });
    expect(page.rows.find((r) => r.id === p)).toMatchObject({ open_flags: 1 });
    expect(page.rows.every((r) => r.open_flags > 0)).toBe(true);
    const unflagged = await db().call<{ rows: { id: string }[] }>(asUser(admin), "admin_list_users", {
      p_flagged: false,
      p_limit: 100,
    });
    expect(unflagged.rows.find((r) => r.id === p)).toBeUndefined();

    const [{ n }] = await db().sql<{ n: number }>(
      "select count(distinct user_id)::int as n from public.player_flags where status = 'open'",
    );
    const dashboard = await db().call<{ counts: { flagged_players: number } }>(asUser(admin), "admin_dashboard");
    expect(dashboard.counts.flagged_players).toBe(n);
    expect(n).toBeGreaterThan(0);
  });
});
