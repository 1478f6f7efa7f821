// Player two-step verification is a second step for every state-changing call. A
// player who has a verified second factor and a session at aal1 (the password alone, as a thief with
// the password has) is refused by every function that changes anything with 'Two-step verification
// required' (aal2_required), and nothing is written; at aal2 the same calls work. A player without a
// factor works at aal1 as before, and the reads the code step and the account shell need (get_my_account,
// which says two_step_owed, get_my_protections and get_entry_quote) work at aal1 for everyone.
import { beforeAll, describe, expect, it } from "vitest";
import { AAL2_REQUIRED, asUser, asUserAtAal1, dbPerFile, type Caller, type DbError } from "./support";

const db = dbPerFile();

let admin: string;
let competition: string;

beforeAll(async () => {
  admin = await db().createAdmin();
  competition = await db().createCompetition(admin, { ticket_price: 1, total_tickets: 100 });
});

/** A digest of every row of every table in schema public: equal before and after means nothing was written. */
async function digest(): Promise<string> {
  const tables = await db().sql<{ name: string }>(
    "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1",
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const [row] = await db().sql<{ d: string }>(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from ${name} t`,
    );
    parts.push(`${name}:${row.d}`);
  }
  return parts.join("\n");
}

/** A player with £50 of credit and a verified second factor. */
async function playerWithFactor(name: string): Promise<string> {
  const id = await db().createPlayer({ name, credits: 50 });
  await db().addSecondFactor(id);
  return id;
}

/** The state-changing calls a stolen password was used for, and the rest of the player's writes. */
const WRITES: Array<[fn: string, args: Record<string, unknown>]> = [
  ["enter_competition", { p_competition_id: "<competition>", p_quantity: 2, p_answer: "4" }],
  ["update_my_profile", { p_name: "Renamed By A Thief", p_email_notifications: false, p_town: "Elsewhere" }],
  ["set_initials_only", { p_initials_only: true }],
  ["set_my_marketing_consent", { p_given: true }],
  ["set_monthly_limit", { p_limit: 2000 }],
  ["take_break", { p_period: "1 week" }],
  ["self_exclude", { p_months: 6 }],
  ["close_account", {}],
  ["dismiss_limit_prompt", {}],
  ["submit_complaint", { p_subject: "A complaint", p_reference: null, p_details: "The details of what went wrong." }],
  ["quote_top_up", { p_amount: 20 }],
  ["create_top_up", { p_amount: 20, p_provider: "test", p_purpose: null }],
  ["spin_wheel", {}],
  ["set_spinner_client_seed", { p_client_seed: "my-own-seed" }],
  ["rotate_spinner_seed", { p_client_seed: null }],
  ["claim_prize", { p_draw_id: "00000000-0000-4000-8000-000000000000", p_choice: "prize" }],
  ["deduct_credits", { user_id: "<self>", amount: 5 }],
];

function argsFor(args: Record<string, unknown>, self: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, v === "<competition>" ? competition : v === "<self>" ? self : v]),
  );
}

describe("a player with a verified factor, at aal1", () => {
  it("is refused by every state-changing call with aal2_required, and nothing is written", async () => {
    const thief = await playerWithFactor("Victim Player");
    const before = await digest();
    const wrong: Array<{ fn: string; error: DbError | null }> = [];
    for (const [fn, args] of WRITES) {
      const res = await db().rpc(asUserAtAal1(thief), fn, argsFor(args, thief));
      if (JSON.stringify(res.error) !== JSON.stringify(AAL2_REQUIRED)) wrong.push({ fn, error: res.error });
    }
    expect(wrong).toEqual([]);
    expect(await digest()).toBe(before);
  });

  it("is refused by the personal reads the code step does not need (ledger, entries, complaints, spins, top-ups)", async () => {
    const id = await playerWithFactor("Reader Player");
    for (const [fn, args] of [
      ["get_my_ledger", {}],
      ["get_my_ledger_page", { p_kind: null, p_month: null, p_before: null, p_limit: 10 }],
      ["get_my_ledger_csv", { p_kind: null, p_month: null }],
      ["get_my_entries", {}],
      ["get_my_complaints", {}],
      ["get_my_spin_history", {}],
      ["get_my_spinner", {}],
      ["get_top_up_options", {}],
      ["get_credit_balance", { user_id: id }],
    ] as const) {
      expect((await db().rpc(asUserAtAal1(id), fn, args)).error, fn).toEqual(AAL2_REQUIRED);
    }
  });

  it("still reads what the code step and the account shell need, and get_my_account says a second step is owed", async () => {
    const id = await playerWithFactor("Shell Player");
    const account = await db().call<{ id: string; two_step_owed: boolean }>(asUserAtAal1(id), "get_my_account");
    expect(account).toMatchObject({ id, two_step_owed: true });
    expect(await db().call(asUserAtAal1(id), "get_my_protections")).toMatchObject({ state: "active" });
    expect(await db().call(asUserAtAal1(id), "get_entry_quote", { p_competition_id: competition })).toMatchObject({
      balance: 50,
      approved: true,
    });
  });

  it("is told it is not an admin, not asked for a code that would not help", async () => {
    const id = await playerWithFactor("Not An Admin");
    expect((await db().rpc(asUserAtAal1(id), "admin_dashboard")).error?.hint).toBe("admin_required");
    expect(
      (await db().rpc(asUserAtAal1(id), "admin_set_user_role", { p_user_id: id, p_role: "admin" })).error?.hint,
    ).toBe("super_admin_required");
  });
});

describe("the same player at aal2", () => {
  it("runs the same calls: entry, profile, limit, break, complaint, top-up, close", async () => {
    const id = await playerWithFactor("Verified Player");
    const me = asUser(id);
    expect(await db().call(me, "get_my_account")).toMatchObject({ two_step_owed: false });
    const entry = await db().call<{ ticket_numbers: number[] }>(me, "enter_competition", {
      p_competition_id: competition,
      p_quantity: 2,
      p_answer: "4",
    });
    expect(entry.ticket_numbers).toHaveLength(2);
    expect(await db().credits(id)).toBe(48);
    expect(await db().call(me, "update_my_profile", { p_name: "New Name" })).toMatchObject({ name: "New Name" });
    await db().call(me, "set_monthly_limit", { p_limit: 100 });
    await db().call(me, "submit_complaint", {
      p_subject: "A complaint",
      p_reference: null,
      p_details: "The details of what went wrong.",
    });
    expect(await db().call(me, "create_top_up", { p_amount: 20, p_provider: "test", p_purpose: null })).toMatchObject({
      status: "pending",
    });
    expect(await db().call(me, "get_my_entries")).toHaveLength(1);
    await db().call(me, "take_break", { p_period: "1 week" });
    expect(await db().call(me, "get_my_protections")).toMatchObject({ state: "break" });
    await db().call(me, "close_account");
    expect(await db().call(me, "get_my_protections")).toMatchObject({ state: "closed" });
  });

  it("passes the guard of the spinner and the prize claim too (refused, if at all, for other reasons)", async () => {
    const id = await playerWithFactor("Spinner Player");
    for (const [fn, args] of [
      ["spin_wheel", {}],
      ["set_spinner_client_seed", { p_client_seed: "my-own-seed" }],
      ["claim_prize", { p_draw_id: "00000000-0000-4000-8000-000000000000", p_choice: "prize" }],
    ] as const) {
      expect((await db().rpc(asUser(id), fn, args)).error?.hint, fn).not.toBe("aal2_required");
    }
  });
});

describe("players without a verified factor", () => {
  const cases: Array<[string, (id: string) => Promise<void>]> = [
    ["no factor", async () => {}],
    ["a set-up left half-way (an unverified factor)", (id) => db().addSecondFactor(id, "unverified")],
  ];
  for (const [label, setUp] of cases) {
    it(`${label}: work at aal1 as before, and owe no second step`, async () => {
      const id = await db().createPlayer({ name: "Plain Player", credits: 10 });
      await setUp(id);
      const me: Caller = asUserAtAal1(id);
      expect(await db().call(me, "get_my_account")).toMatchObject({ two_step_owed: false });
      await db().call(me, "enter_competition", { p_competition_id: competition, p_quantity: 1, p_answer: "4" });
      expect(await db().call(me, "update_my_profile", { p_town: "Leeds" })).toMatchObject({ town: "Leeds" });
      await db().call(me, "self_exclude", { p_months: 6 });
      expect(await db().call(me, "get_my_ledger")).not.toHaveLength(0);
    });
  }

  it("another user's factor is theirs alone", async () => {
    const other = await playerWithFactor("Has A Factor");
    const id = await db().createPlayer({ name: "Next Door" });
    expect(await db().call(asUserAtAal1(id), "get_my_account")).toMatchObject({ two_step_owed: false });
    expect(await db().call(asUserAtAal1(other), "get_my_account")).toMatchObject({ two_step_owed: true });
  });
});

describe("every function a signed-in user may call, as a player with a factor at aal1", () => {
  it("those that guard with require_user (or ask for aal2 themselves) refuse with aal2_required, the listed reads and the public ones do not", async () => {
    const id = await playerWithFactor("Matrix Player");
    const rows = await db().sql<{ name: string; types: string[] | null; retset: boolean; strict: boolean }>(
      `select p.proname as name, p.proretset as retset,
              (p.prosrc ~ 'private\\.require_user\\(\\)' or p.prosrc ~ 'not private\\.session_is_aal2\\(\\)') as strict,
              (select array_agg(format_type(t, null) order by i) from unnest(p.proargtypes::oid[]) with ordinality u(t, i)) as types
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace and has_function_privilege('authenticated', p.oid, 'EXECUTE')
        order by 1`,
    );
    const strict = rows.filter((r) => r.strict).map((r) => r.name);
    // Every write above is among them, so none can be dropped from the guard unnoticed.
    expect(WRITES.map(([fn]) => fn).filter((fn) => !strict.includes(fn))).toEqual([]);
    expect(strict).not.toContain("get_my_account");
    const before = await digest();
    const wrong: Array<{ fn: string; error: DbError | null }> = [];
    for (const r of rows) {
      const args = (r.types ?? []).map((t) => `null::${t}`).join(", ");
      const sql = r.retset ? `select * from public.${r.name}(${args})` : `select public.${r.name}(${args})`;
      const res = await db().as(asUserAtAal1(id), sql);
      const refusedForStep = res.error?.hint === "aal2_required";
      if (refusedForStep !== r.strict) wrong.push({ fn: r.name, error: res.error });
    }
    expect(wrong).toEqual([]);
    // get_my_account may create missing rows, but this player has them: nothing at all was written.
    expect(await digest()).toBe(before);
  });
});
