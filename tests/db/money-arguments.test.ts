// Money arguments: every function that takes an amount refuses NaN,
// Infinity, -Infinity and a third decimal with invalid_input through private.is_pounds, and writes
// nothing. Arguments typed numeric are sent as PostgREST sends them (text the server casts, so
// "NaN" reaches SQL as NaN); inside JSON a number cannot be NaN or Infinity, so functions taking
// JSON are sent the words as strings, and the third decimal as a number.
import { beforeAll, describe, expect, it } from "vitest";
import { asUser, attempt, dbPerFile, service } from "./support";

const db = dbPerFile();

/** The amounts no money argument may take. */
const BAD = ["NaN", "Infinity", "-Infinity", 1.001] as const;

const refused = { ok: false, hint: "invalid_input" };

let admin: string;
let superAdmin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
  superAdmin = await db().createUser({ name: "Sue Super", role: "super_admin", approved: true });
});

const count = async (sql: string, params: unknown[] = []) =>
  Number((await db().sql<{ n: string }>(`select count(*) as n from (${sql}) s`, params))[0].n);

/** Everything a money function could write, counted: a refusal must leave every count as it was. */
const writes = async () => ({
  ledger: await count("select 1 from public.credit_ledger"),
  topUps: await count("select 1 from public.top_ups"),
  pending: await count("select 1 from public.top_ups where status = 'pending'"),
  refunds: await count("select 1 from public.top_up_refunds"),
  protections: await count("select 1 from public.player_protections where monthly_limit is not null"),
  settings: await count("select 1 from public.app_settings where updated_by is not null"),
  wheels: await count("select 1 from public.spinner_wheels"),
  competitions: await count("select 1 from public.competitions"),
  activity: await count("select 1 from public.activity_log"),
});

describe("numeric money arguments refuse NaN, ±Infinity and a third decimal with invalid_input", () => {
  it.each(BAD)("admin_adjust_credit(%s)", async (amount) => {
    const player = await db().createPlayer({ credits: 10 });
    const before = await writes();
    const call = db().call(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: amount,
      p_reason: "Goodwill",
    });
    expect(await attempt(call)).toMatchObject(refused);
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("quote_top_up(%s) answers the refusal invalid_input without raising", async (amount) => {
    const player = await db().createPlayer();
    const before = await writes();
    const quote = await db().call<{ amount: unknown; bonus: unknown; refusal: { code: string } }>(
      asUser(player),
      "quote_top_up",
      { p_amount: amount },
    );
    expect(quote).toMatchObject({ amount: null, bonus: null, refusal: { code: "invalid_input" } });
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("create_top_up(%s)", async (amount) => {
    const player = await db().createPlayer();
    const before = await writes();
    const call = db().call(asUser(player), "create_top_up", { p_amount: amount, p_provider: "test", p_purpose: null });
    expect(await attempt(call)).toMatchObject(refused);
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("confirm_top_up with %s paid", async (amount) => {
    const player = await db().createPlayer();
    const topUp = await db().call<{ id: string }>(asUser(player), "create_top_up", {
      p_amount: 10,
      p_provider: "test",
      p_purpose: null,
    });
    const before = await writes();
    const call = db().call(service, "confirm_top_up", {
      p_top_up_id: topUp.id,
      p_payment_id: `pi_bad_${topUp.id}`,
      p_funding: "debit",
      p_amount_paid: amount,
    });
    expect(await attempt(call)).toMatchObject(refused);
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("record_top_up_refund of %s", async (amount) => {
    const player = await db().createPlayer();
    const topUp = await db().call<{ id: string }>(asUser(player), "create_top_up", {
      p_amount: 10,
      p_provider: "test",
      p_purpose: null,
    });
    await db().call(service, "confirm_top_up", {
      p_top_up_id: topUp.id,
      p_payment_id: `pi_${topUp.id}`,
      p_funding: "debit",
      p_amount_paid: 10,
    });
    const before = await writes();
    const call = db().call(service, "record_top_up_refund", {
      p_payment_id: `pi_${topUp.id}`,
      p_refund_id: `re_${topUp.id}`,
      p_amount: amount,
    });
    expect(await attempt(call)).toMatchObject(refused);
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("set_monthly_limit(%s)", async (amount) => {
    const player = await db().createPlayer();
    const before = await writes();
    expect(await attempt(db().call(asUser(player), "set_monthly_limit", { p_limit: amount }))).toMatchObject(refused);
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("deduct_credits(%s), by the player and by the server", async (amount) => {
    const player = await db().createPlayer({ credits: 10 });
    const before = await writes();
    for (const caller of [asUser(player), service]) {
      const call = db().call(caller, "deduct_credits", { user_id: player, amount });
      expect(await attempt(call)).toMatchObject(refused);
    }
    expect(await writes()).toEqual(before);
    expect(await db().credits(player)).toBe(10);
  });

  it.each(BAD)("add_credits(%s), the amount and the amount paid", async (amount) => {
    const player = await db().createPlayer();
    const before = await writes();
    for (const args of [
      { user_id: player, amount },
      { user_id: player, amount: 5, transaction_amount: amount },
    ]) {
      expect(await attempt(db().call(service, "add_credits", args))).toMatchObject(refused);
    }
    expect(await writes()).toEqual(before);
  });
});

describe("money inside JSON refuses the same", () => {
  it.each(BAD)("admin_update_settings: the money settings and a bonus tier's amount (%s)", async (amount) => {
    const before = await writes();
    for (const key of [
      "top_up_min",
      "top_up_max",
      "credit_card_monthly_cap",
      "large_adjustment_threshold",
      "stamp_price",
    ]) {
      const call = db().call(asUser(superAdmin), "admin_update_settings", { p: { [key]: amount } });
      expect(await attempt(call), key).toMatchObject(refused);
    }
    const tiers = [{ from: amount, percent: 5 }];
    const call = db().call(asUser(superAdmin), "admin_update_settings", { p: { bonus_tiers: tiers } });
    expect(await attempt(call)).toMatchObject(refused);
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("admin_update_spinner_wheel: a prize of %s", async (amount) => {
    const before = await writes();
    const call = db().call(asUser(admin), "admin_update_spinner_wheel", {
      p_segments: [
        { label: "Prize", colour: "#1d4ed8", label_colour: "#ffffff", prize_credits: amount, weight: 1 },
        { label: "Nothing", colour: "#facc15", label_colour: "#111111", prize_credits: 0, weight: 3 },
      ],
    });
    expect(await attempt(call)).toMatchObject(refused);
    expect(await writes()).toEqual(before);
  });

  it.each(BAD)("admin_create_competition and admin_update_competition: amounts of %s", async (amount) => {
    const id = await db().createCompetition(admin, {}, false);
    const before = await writes();
    for (const field of ["ticket_price", "prize_value", "cash_alternative"]) {
      const created = db().call(asUser(admin), "admin_create_competition", {
        p: {
          title: "Bad money",
          slug: `bad-money-${field}`,
          prize_description: "A prize",
          prize_value: 100,
          images: ["/competitions/test.svg"],
          ticket_price: 1,
          total_tickets: 100,
          max_tickets_per_user: 100,
          closes_at: new Date(Date.now() + 7 * 86400_000).toISOString(),
          skill_question: "What is 2 + 2?",
          skill_options: ["3", "4", "5"],
          skill_answer: "4",
          [field]: amount,
        },
      });
      expect(await attempt(created), field).toMatchObject(refused);
      const updated = db().call(asUser(admin), "admin_update_competition", { p_id: id, p: { [field]: amount } });
      expect(await attempt(updated), field).toMatchObject(refused);
    }
    expect(await writes()).toEqual(before);
  });
});

describe("good amounts still pass", () => {
  it("two decimals, and whole pounds, are accepted by each function", async () => {
    const player = await db().createPlayer({ credits: 10 });
    expect(await db().call(asUser(player), "deduct_credits", { user_id: player, amount: 0.01 })).toBe(true);
    const quote = await db().call<{ amount: number }>(asUser(player), "quote_top_up", { p_amount: "12.34" });
    expect(quote.amount).toBe(12.34);
    await db().call(asUser(player), "set_monthly_limit", { p_limit: "250.50" });
    const adjusted = await db().call<{ amount: number }>(asUser(admin), "admin_adjust_credit", {
      p_user_id: player,
      p_amount: -0.99,
      p_reason: "Correction",
    });
    expect(adjusted.amount).toBe(-0.99);
    expect(await db().credits(player)).toBe(9);
  });
});
