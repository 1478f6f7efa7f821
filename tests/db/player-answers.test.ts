// What a player's top-up calls (quote_top_up, get_top_up_options, get_top_up), notifications
// (get_my_notifications, get_my_push_settings), referrals (get_my_referrals, admin_get_user_referrals,
// check_referral_code, settle_referrals), an admin's credit adjustment and bulk approval, the cron's
// raise_player_flags and unsubscribe_marketing answer, through limits, bonuses, entries, a break and two browsers.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, dbPerFile, service, type Caller } from "./support";

const db = dbPerFile();

let admin: string;
let competition: string;
beforeAll(async () => {
  admin = await db().createUser({ role: "super_admin", approved: true });
  competition = await db().createCompetition(admin, { total_tickets: 1000, max_tickets_per_user: 100 });
});

/** The call's answer (a refusal fails the test). */
const answer = (caller: Caller, fn: string, args: Record<string, unknown> = {}) =>
  db().call<Record<string, unknown>>(caller, fn, args);

const setting = (key: string, value: unknown) =>
  db().sql("update public.app_settings set value = $2 where key = $1", [key, JSON.stringify(value)]);

const topUp = (player: string, amount: number, funding = "debit", purpose: unknown = null) =>
  db().paidTopUp(player, amount, funding, purpose);

describe("a player's top-up calls", () => {
  it("answer options, quotes and top-ups, through limits, bonuses, entries and a break", async () => {
    const player = await db().createUser({ approved: true });
    type Quote = { amount: number | null; credit: number | null; refusal: { code: string } | null };
    /** Every amount is quoted, never raised on: a bad one answers its refusal. */
    const quotes = async () => {
      const quoted: Record<string, Quote> = {};
      for (const amount of [10, 50.5, 0, 0.001, 1, 1_000_000, null])
        quoted[String(amount)] = (await answer(asUser(player), "quote_top_up", { p_amount: amount })) as Quote;
      for (const bad of ["0", "0.001", "1000000", "null"]) expect(quoted[bad].refusal).not.toBeNull();
      return quoted;
    };
    expect(await answer(asUser(player), "get_top_up_options")).toMatchObject({
      needs_limit_prompt: true,
      blocked: null,
    });
    const plain = await quotes();
    expect(plain["10"]).toMatchObject({ amount: 10, credit: 10, refusal: null });
    await setting("bonus_enabled", true);
    expect((await quotes())["50.5"]).toMatchObject({ bonus_enabled: true, refusal: null });
    await answer(asUser(player), "get_top_up_options");

    const paid = await topUp(player, 50);
    expect(await answer(asUser(player), "get_top_up", { p_id: paid })).toMatchObject({
      status: "credited",
      entry: null,
    });
    const entered = await topUp(player, 10, "credit", { competition_id: competition, quantity: 2, answer: "4" });
    expect(await answer(asUser(player), "get_top_up", { p_id: entered })).toMatchObject({
      entry: { competition_slug: expect.any(String) },
    });
    const wrong = await topUp(player, 10, "debit", { competition_id: competition, quantity: 1, answer: "5" });
    expect(await answer(asUser(player), "get_top_up", { p_id: wrong })).toMatchObject({
      entry: null,
      entry_error: { code: expect.any(String) },
    });
    await setting("credit_card_monthly_cap", 15);
    const refused = await topUp(player, 10, "credit");
    expect(await answer(asUser(player), "get_top_up", { p_id: refused })).toMatchObject({
      refusal_reason_code: "card_cap_exceeded",
    });
    await setting("bonus_tiers", []);
    await answer(asUser(player), "get_top_up_options");

    await db().call(asUser(player), "set_monthly_limit", { p_limit: 100 });
    await db().call(asUser(player), "set_monthly_limit", { p_limit: 200 });
    expect(await answer(asUser(player), "get_top_up_options")).toMatchObject({
      monthly_limit: 100,
      pending_limit: 200,
    });
    await quotes();
    await db().call(asUser(player), "set_monthly_limit", { p_limit: 72 });
    expect(await answer(asUser(player), "get_top_up_options")).toMatchObject({
      blocked: { code: "monthly_limit_reached" },
    });
    await db().call(asUser(player), "take_break", { p_period: "1 week" });
    expect(await answer(asUser(player), "get_top_up_options")).toMatchObject({ blocked: { code: "on_break" } });
    expect((await quotes())["10"].refusal).toMatchObject({ code: "on_break" });
  });
});

describe("notifications", () => {
  it("answer pages and push settings, with none, read and unread, and two browsers", async () => {
    const player = await db().createUser({ approved: false });
    const notices = (limit: number, before: number | null = null) =>
      answer(asUser(player), "get_my_notifications", { p_limit: limit, p_before: before }) as Promise<{
        items: { id: number }[];
        unread: number;
      }>;
    expect(await notices(20)).toMatchObject({ unread: 0 });
    expect(await answer(asUser(player), "get_my_push_settings")).toEqual({ kinds: [], endpoints: [] });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: player });
    await topUp(player, 10);
    await topUp(player, 20);
    const page = await notices(20);
    const items = page.items;
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(page.unread).toBe(items.length);
    await db().call(asUser(player), "mark_notification_read", { p_id: items[1].id });
    expect((await notices(20)).unread).toBe(items.length - 1);
    expect((await notices(2)).items.map((n) => n.id)).toEqual(items.slice(0, 2).map((n) => n.id));
    expect((await notices(2, items[1].id)).items.map((n) => n.id)).toEqual(items.slice(2, 4).map((n) => n.id));
    expect((await notices(2, items.at(-1)!.id)).items).toEqual([]);

    await db().call(asUser(player), "set_my_push_kinds", { p_kinds: ["draw_won", "credit"] });
    const key = "B".repeat(87) + "=";
    for (const n of [1, 2])
      await db().call(asUser(player), "save_push_subscription", {
        p_endpoint: `https://fcm.googleapis.com/fcm/send/${n}`,
        p_p256dh: key,
        p_auth: "A".repeat(22),
      });
    expect(await answer(asUser(player), "get_my_push_settings")).toEqual({
      kinds: ["draw_won", "credit"],
      endpoints: ["https://fcm.googleapis.com/fcm/send/1", "https://fcm.googleapis.com/fcm/send/2"],
    });
  });
});

describe("referrals", () => {
  it("answer the inviter's, the friends' and the admin's views, pending, credited and refused", async () => {
    const email = "ina.inviter@labcash.test";
    const inviter = await db().createUser({ email, approved: true, credits: 10 });
    await answer(asUser(admin), "admin_get_user_referrals", { p_user: inviter });
    // The code is made on the first call.
    const { code } = await db().call<{ code: string }>(asUser(inviter), "get_my_referrals");
    await answer(asUser(inviter), "get_my_referrals");
    await answer(asUser(admin), "admin_get_user_referrals", { p_user: inviter });
    expect(
      await answer(service, "check_referral_code", { p_code: ` ${code.toLowerCase()} `, p_email: "x@y.test" }),
    ).toEqual({ code });
    const friend = (n: number, name: string) =>
      db().createUser({
        email: `friend${n}@labcash.test`,
        meta: { name, date_of_birth: "1990-01-01", referral_code: code },
      });
    const pending = await friend(1, "Pat Pending");
    const credited = await friend(2, "Cal Credited");
    const self = await db().createUser({
      email: "ina.inviter+me@labcash.test",
      meta: { name: "Ina Again", date_of_birth: "1990-01-01", referral_code: code },
    });
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: credited });
    await db().call(service, "add_credits", { user_id: credited, amount: 10, transaction_amount: 10 });
    await db().call(asUser(credited), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 1,
      p_answer: "4",
    });
    expect(await answer(asUser(inviter), "get_my_referrals")).toMatchObject({ joined: 3, credited: 1 });
    for (const id of [inviter, pending, credited, self]) {
      await answer(asUser(admin), "admin_get_user_referrals", { p_user: id });
      if (id === inviter) continue;
      await db().call(asUser(id), "get_my_referrals");
      await answer(asUser(id), "get_my_referrals");
    }
    expect(await answer(service, "settle_referrals")).toEqual({ checked: 0 });
    // A referral an entry left pending (the inviter's account was busy then) is the cron's to settle.
    await db().call(asUser(admin), "admin_approve_user", { p_user_id: pending });
    await db().call(service, "add_credits", { user_id: pending, amount: 10, transaction_amount: 10 });
    await db().sql("alter table public.entries disable trigger entries_settle_referral");
    await db().call(asUser(pending), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 1,
      p_answer: "4",
    });
    await db().sql("alter table public.entries enable trigger entries_settle_referral");
    expect(await answer(service, "settle_referrals")).toEqual({ checked: 1 });
  });
});

describe("an admin's credit adjustment, a bulk approval, the cron's flags and an unsubscribe", () => {
  it("adjust a balance, approve in bulk, raise flags and unsubscribe", async () => {
    const player = await db().createUser({ approved: true, credits: 10 });
    expect(
      await answer(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 5.5, p_reason: "Goodwill" }),
    ).toMatchObject({ amount: 5.5 });
    await db().call(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: 5.5, p_reason: "Goodwill" });
    await answer(asUser(admin), "admin_adjust_credit", { p_user_id: player, p_amount: -21, p_reason: "Taken back" });

    const waiting = [await db().createUser({ name: "Wes Waiting" }), await db().createUser({ name: "Val Waiting" })];
    const unknown = "00000000-0000-4000-8000-000000000000";
    const ids = [...waiting, waiting[0], player, unknown];
    expect(await answer(asUser(admin), "admin_approve_users", { p_user_ids: ids })).toMatchObject({ skipped: 2 });
    expect(await answer(asUser(admin), "admin_approve_users", { p_user_ids: [player] })).toEqual({
      approved: [],
      skipped: 1,
    });

    expect(await answer(service, "raise_player_flags")).toEqual({ raised: 0 });
    await db().call(asUser(player), "set_monthly_limit", { p_limit: 10 });
    await topUp(player, 10);
    expect(await answer(service, "raise_player_flags")).toEqual({ raised: 1 });

    const [{ token }] = await db().sql<{ token: string }>("select private.new_unsubscribe_token($1) as token", [
      player,
    ]);
    expect(await answer(service, "unsubscribe_marketing", { p_token: token })).toEqual({ unsubscribed: true });
  });
});
