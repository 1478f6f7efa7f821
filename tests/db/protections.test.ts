// Responsible play (code of practice 1.4, 1.5, 1.8): the monthly limit on money put
// in and credit spent, its cooling-off, breaks, self-exclusion and closure, enforced in SQL on
// top-ups and entries, and the marketing-mail gate. Real PGlite.
import { describe, expect, it } from "vitest";
import { asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

interface Protections {
  monthly_limit: number | null;
  pending_limit: number | null;
  pending_limit_from: string | null;
  month_topped_up: number;
  month_credited: number;
  month_held: number;
  month_spent: number;
  top_up_remaining: number | null;
  state: string;
  break_until: string | null;
  closed_at: string | null;
  limit_increase_delay_hours: number;
  spend_remaining: number | null;
}

const protections = (uid: string) => db().call<Protections>(asUser(uid), "get_my_protections");
const setLimit = (uid: string, limit: number | string | null) =>
  db().call<Protections>(asUser(uid), "set_monthly_limit", { p_limit: limit });
const createTopUp = (uid: string, amount: number) =>
  db().call<{ id: string }>(asUser(uid), "create_top_up", { p_amount: amount, p_provider: "test" });
const enter = (uid: string, comp: string, quantity: number) =>
  db().call(asUser(uid), "enter_competition", { p_competition_id: comp, p_quantity: quantity, p_answer: "4" });
/** Moves a pending increase's moment into the past, as if the cooling-off had passed. */
const coolingOffPassed = (uid: string) =>
  db().sql("update public.player_protections set pending_limit_from = now() - interval '1 second' where user_id = $1", [
    uid,
  ]);

describe("the monthly limit", () => {
  it("no limit by default; a first limit and a decrease apply at once", async () => {
    const p = await db().createPlayer();
    expect(await protections(p)).toEqual({
      monthly_limit: null,
      pending_limit: null,
      pending_limit_from: null,
      month_topped_up: 0,
      month_credited: 0,
      month_held: 0,
      month_spent: 0,
      top_up_remaining: null,
      state: "active",
      break_until: null,
      closed_at: null,
      limit_increase_delay_hours: 24,
      spend_remaining: null,
    });
    expect(await setLimit(p, 100)).toMatchObject({
      monthly_limit: 100,
      pending_limit: null,
      top_up_remaining: 100,
      spend_remaining: 100,
    });
    expect(await setLimit(p, 40)).toMatchObject({ monthly_limit: 40, pending_limit: null });
  });

  it("an increase, or removing the limit, waits 24 hours and applies when read after that", async () => {
    const p = await db().createPlayer();
    await setLimit(p, 50);
    const raised = await setLimit(p, 80);
    expect(raised).toMatchObject({ monthly_limit: 50, pending_limit: 80 });
    const hours = (Date.parse(raised.pending_limit_from!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    // Still 50 meanwhile: a top-up of 60 is refused.
    expect(await attempt(createTopUp(p, 60))).toMatchObject({ ok: false, hint: "monthly_limit_reached" });
    await coolingOffPassed(p);
    expect(await protections(p)).toMatchObject({ monthly_limit: 80, pending_limit: null, pending_limit_from: null });
    await createTopUp(p, 60);

    const removing = await setLimit(p, null);
    expect(removing).toMatchObject({ monthly_limit: 80, pending_limit: null });
    expect(removing.pending_limit_from).not.toBeNull();
    await coolingOffPassed(p);
    expect(await protections(p)).toMatchObject({ monthly_limit: null, pending_limit_from: null });
  });

  it("a decrease cancels a pending increase", async () => {
    const p = await db().createPlayer();
    await setLimit(p, 50);
    await setLimit(p, 500);
    expect(await setLimit(p, 30)).toMatchObject({ monthly_limit: 30, pending_limit: null, pending_limit_from: null });
  });

  it.each([["-1"], ["1.001"], ["NaN"], ["1000000.01"]])("refuses the limit %s", async (limit) => {
    const p = await db().createPlayer();
    expect(await attempt(setLimit(p, limit))).toMatchObject({ ok: false, hint: "invalid_input" });
    expect(await db().sql("select 1 from public.player_protections where user_id = $1", [p])).toEqual([]);
  });

  it("caps money put in: pending and credited top-ups this month count; failed ones do not", async () => {
    const p = await db().createPlayer();
    await setLimit(p, 100);
    const a = await createTopUp(p, 60);
    expect(await db().call(asUser(p), "quote_top_up", { p_amount: 50 })).toMatchObject({
      monthly_remaining: 40,
      refusal: {
        code: "monthly_limit_reached",
        message: "This top-up would take you over your monthly limit: £40.00 left to top up this month",
      },
    });
    expect(await attempt(createTopUp(p, 41))).toMatchObject({
      ok: false,
      hint: "monthly_limit_reached",
      message: "This top-up would take you over your monthly limit: £40.00 left to top up this month",
    });
    await db().call(service, "fail_top_up", { p_top_up_id: a.id, p_status: "failed" });
    const b = await createTopUp(p, 100);
    await db().call(service, "confirm_top_up", {
      p_top_up_id: b.id,
      p_payment_id: "pi_limit_b",
      p_funding: "debit",
      p_amount_paid: 100,
    });
    expect(await protections(p)).toMatchObject({ month_topped_up: 100, top_up_remaining: 0, spend_remaining: 100 });
    expect(await db().call(asUser(p), "get_top_up_options")).toMatchObject({
      monthly_remaining: 0,
      blocked: { code: "monthly_limit_reached" },
    });
    // A top-up from an earlier month does not count.
    await db().sql("update public.top_ups set created_at = now() - interval '40 days' where id = $1", [b.id]);
    expect(await protections(p)).toMatchObject({ month_topped_up: 0, top_up_remaining: 100 });
  });

  it("caps credit spent on entries this month", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin, { ticket_price: 2 });
    const p = await db().createPlayer({ credits: 50 });
    await setLimit(p, 10);
    await enter(p, comp, 4);
    expect(await attempt(enter(p, comp, 2))).toMatchObject({
      ok: false,
      hint: "monthly_limit_reached",
      message: "This entry would take you over your monthly limit: £2.00 left to spend on entries this month",
    });
    await enter(p, comp, 1);
    expect(await protections(p)).toMatchObject({ month_spent: 10, spend_remaining: 0, top_up_remaining: 10 });
    expect(await db().credits(p)).toBe(40);
  });

  it("says what is left of each cap: £0.00 left to top up while spending still has room, and an entry goes through", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin, { ticket_price: 0.5 });
    const p = await db().createPlayer();
    await setLimit(p, 20);
    const topUp = await createTopUp(p, 20);
    await db().call(service, "confirm_top_up", {
      p_top_up_id: topUp.id,
      p_payment_id: "pi_limit_each_cap",
      p_funding: "debit",
      p_amount_paid: 20,
    });
    await enter(p, comp, 29); // £14.50
    expect(await protections(p)).toMatchObject({
      month_credited: 20,
      month_spent: 14.5,
      top_up_remaining: 0,
      spend_remaining: 5.5,
    });
    await enter(p, comp, 1);
    expect(await protections(p)).toMatchObject({ month_spent: 15, spend_remaining: 5 });
    expect(await attempt(createTopUp(p, 5))).toMatchObject({ ok: false, hint: "monthly_limit_reached" });
  });

  it("£0 is allowed and blocks every top-up and every paid entry", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin);
    const p = await db().createPlayer({ credits: 5 });
    expect(await setLimit(p, 0)).toMatchObject({ monthly_limit: 0, top_up_remaining: 0, spend_remaining: 0 });
    expect(await attempt(createTopUp(p, 5))).toMatchObject({ ok: false, hint: "monthly_limit_reached" });
    expect(await attempt(enter(p, comp, 1))).toMatchObject({ ok: false, hint: "monthly_limit_reached" });
    expect(await db().credits(p)).toBe(5);
  });

  it("the limit prompt shows until a limit is set, a top-up is credited or it is dismissed", async () => {
    const options = async (uid: string) => {
      const answer = await db().call<{
        needs_limit_prompt: boolean;
        quick_picks: number[];
        bonus_tiers: unknown;
        blocked: unknown;
      }>(asUser(uid), "get_top_up_options");
      // The account dashboard's one read says the same (get_my_dashboard).
      const dashboard = await db().call<{ needs_limit_prompt: boolean }>(asUser(uid), "get_my_dashboard");
      expect(dashboard.needs_limit_prompt).toBe(answer.needs_limit_prompt);
      return answer;
    };
    const a = await db().createPlayer();
    expect(await options(a)).toMatchObject({
      needs_limit_prompt: true,
      quick_picks: [10, 25, 50, 100, 200],
      bonus_tiers: [
        { from: 50, percent: 2.5 },
        { from: 200, percent: 5 },
      ],
      blocked: null,
    });
    await db().call(asUser(a), "dismiss_limit_prompt");
    expect((await options(a)).needs_limit_prompt).toBe(false);
    const b = await db().createPlayer();
    await setLimit(b, null);
    expect((await options(b)).needs_limit_prompt).toBe(false);
  });
});

describe("breaks, self-exclusion and closure", () => {
  it.each([
    ["1 week", 7],
    ["1 month", 28],
    ["3 months", 89],
  ])("a break of %s blocks top-ups and entries, and cannot be shortened", async (period, minDays) => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin);
    const p = await db().createPlayer({ credits: 5 });
    const after = await db().call<Protections>(asUser(p), "take_break", { p_period: period });
    expect(after.state).toBe("break");
    expect((Date.parse(after.break_until!) - Date.now()) / 86_400_000).toBeGreaterThan(minDays - 0.01);
    expect(await attempt(createTopUp(p, 10))).toMatchObject({ ok: false, hint: "on_break" });
    expect(await attempt(enter(p, comp, 1))).toMatchObject({ ok: false, hint: "on_break" });
    expect(await db().call(asUser(p), "quote_top_up", { p_amount: 10 })).toMatchObject({
      refusal: { code: "on_break" },
    });
    expect(await db().call(asUser(p), "get_top_up_options")).toMatchObject({ blocked: { code: "on_break" } });
    // A shorter break later does not shorten it.
    const again = await db().call<Protections>(asUser(p), "take_break", { p_period: "1 week" });
    expect(Date.parse(again.break_until!)).toBeGreaterThanOrEqual(Date.parse(after.break_until!));
    if (period !== "1 week") expect(again.break_until).toBe(after.break_until);
    expect(await db().credits(p)).toBe(5);
  });

  it("a break ends by itself", async () => {
    const p = await db().createPlayer();
    await db().call(asUser(p), "take_break", { p_period: "1 week" });
    await db().sql(
      "update public.player_protections set break_until = now() - interval '1 second' where user_id = $1",
      [p],
    );
    expect(await protections(p)).toMatchObject({ state: "active", break_until: null });
    await createTopUp(p, 10);
  });

  it("self-exclusion is 6 months or more, blocks play and is not weakened by a later break", async () => {
    const p = await db().createPlayer();
    for (const months of [5, 0, -6, 121])
      expect(await attempt(db().call(asUser(p), "self_exclude", { p_months: months })), String(months)).toMatchObject({
        ok: false,
        hint: "invalid_input",
      });
    const excluded = await db().call<Protections>(asUser(p), "self_exclude", { p_months: 6 });
    expect(excluded.state).toBe("self_exclusion");
    expect((Date.parse(excluded.break_until!) - Date.now()) / 86_400_000).toBeGreaterThan(180);
    expect(await attempt(createTopUp(p, 10))).toMatchObject({ ok: false, hint: "self_excluded" });
    const shorter = await db().call<Protections>(asUser(p), "self_exclude", { p_months: 6 });
    expect(Date.parse(shorter.break_until!)).toBeGreaterThanOrEqual(Date.parse(excluded.break_until!));
    const longer = await db().call<Protections>(asUser(p), "self_exclude", { p_months: 12 });
    expect((Date.parse(longer.break_until!) - Date.now()) / 86_400_000).toBeGreaterThan(360);
    const later = await db().call<Protections>(asUser(p), "take_break", { p_period: "3 months" });
    expect(later).toMatchObject({ state: "self_exclusion", break_until: longer.break_until });
    expect(await attempt(db().call(asUser(p), "take_break", { p_period: "2 days" }))).toMatchObject({
      ok: false,
      hint: "invalid_input",
    });
  });

  it("closure is for good: blocks top-ups and entries, and no break or exclusion replaces it", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin);
    const p = await db().createPlayer({ credits: 5 });
    const closed = await db().call<Protections>(asUser(p), "close_account");
    expect(closed.state).toBe("closed");
    expect(closed.closed_at).not.toBeNull();
    expect(await attempt(createTopUp(p, 10))).toMatchObject({
      ok: false,
      hint: "account_closed",
      message: "Your account is closed",
    });
    expect(await attempt(enter(p, comp, 1))).toMatchObject({ ok: false, hint: "account_closed" });
    expect(await attempt(db().call(asUser(p), "take_break", { p_period: "1 week" }))).toMatchObject({
      ok: false,
      hint: "account_closed",
    });
    expect(await db().call(asUser(p), "close_account")).toMatchObject({ closed_at: closed.closed_at });
    // History stays readable.
    expect(await db().call(asUser(p), "get_my_ledger_page", {})).toMatchObject({ totals: { count: 1 } });
  });

  it("a paid top-up is still credited during a break (the money was taken); its entry is refused", async () => {
    const admin = await db().createAdmin();
    const comp = await db().createCompetition(admin);
    const p = await db().createPlayer();
    const t = await db().call<{ id: string }>(asUser(p), "create_top_up", {
      p_amount: 10,
      p_provider: "test",
      p_purpose: { competition_id: comp, quantity: 1, answer: "4" },
    });
    await db().call(asUser(p), "take_break", { p_period: "1 week" });
    await db().call(service, "confirm_top_up", {
      p_top_up_id: t.id,
      p_payment_id: "pi_break",
      p_funding: "debit",
      p_amount_paid: 10,
    });
    expect(await db().credits(p)).toBe(10);
    expect(await db().call(asUser(p), "get_top_up", { p_id: t.id })).toMatchObject({
      status: "credited",
      entry_error: { code: "on_break" },
    });
  });
});

describe("marketing mail", () => {
  it("only to players who consented and are not on a break, excluded or closed", async () => {
    const may = async (uid: string) =>
      (await db().sql<{ ok: boolean }>("select private.may_receive_marketing($1) as ok", [uid]))[0].ok;
    const yes = await db().createPlayer();
    expect(await may(yes)).toBe(false); // never asked: no consent
    await db().call(asUser(yes), "set_my_marketing_consent", { p_given: true });
    expect(await may(yes)).toBe(true);
    const optedOut = await db().createPlayer();
    await db().sql("update public.profiles set marketing_consent = false where id = $1", [optedOut]);
    expect(await may(optedOut)).toBe(false);
    const resting = await db().createPlayer();
    await db().call(asUser(resting), "set_my_marketing_consent", { p_given: true });
    await db().call(asUser(resting), "take_break", { p_period: "1 week" });
    expect(await may(resting)).toBe(false);
    const excluded = await db().createPlayer();
    await db().call(asUser(excluded), "set_my_marketing_consent", { p_given: true });
    await db().call(asUser(excluded), "self_exclude", { p_months: 6 });
    expect(await may(excluded)).toBe(false);
    const closed = await db().createPlayer();
    await db().call(asUser(closed), "set_my_marketing_consent", { p_given: true });
    await db().call(asUser(closed), "close_account");
    expect(await may(closed)).toBe(false);
  });
});
