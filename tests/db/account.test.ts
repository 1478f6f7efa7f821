// The caller's own account: get_my_account, update_my_profile, and the spec §5 rule that
// user operations need a signed-in user.
import { describe, expect, it } from "vitest";
import { NOT_AUTHENTICATED, anon, asUser, asUserAtAal1, service, dbPerFile, type Caller } from "./support";

const db = dbPerFile();

/** Every RPC a signed-in person calls, with arguments that would otherwise be valid. */
const userRpcs = (someone: string): Array<[string, Record<string, unknown>]> => [
  ["get_my_account", {}],
  ["update_my_profile", { p_name: "Anon" }],
  ["get_my_ledger", {}],
  ["get_credit_balance", { user_id: someone }],
  ["deduct_credits", { user_id: someone, amount: 1 }],
  ["admin_list_pending_approvals", {}],
  ["admin_approve_user", { p_user_id: someone }],
  ["admin_reject_user", { p_user_id: someone, p_reason: "Not eligible" }],
];

describe("get_my_account", () => {
  it("returns the caller's own merged account and nobody else's", async () => {
    const a = await db().createUser({ email: "a@acct.test", meta: { name: "Alice" } });
    const b = await db().createUser({ email: "b@acct.test", meta: { name: "Bob" } });
    expect(await db().call(asUser(a), "get_my_account")).toMatchObject({ id: a, name: "Alice", email: "a@acct.test" });
    expect(await db().call(asUser(b), "get_my_account")).toMatchObject({ id: b, name: "Bob", email: "b@acct.test" });
  });

  it("says a second step is owed only at aal1 with a verified factor, and the welcome only once approved", async () => {
    const player = await db().createPlayer({ credits: 7.5 });
    const pending = await db().createUser();
    await db().addSecondFactor(player);
    const owed = async (caller: Caller) =>
      (await db().call<{ two_step_owed: boolean; welcome_due: boolean }>(caller, "get_my_account")).two_step_owed;
    expect([await owed(asUserAtAal1(player)), await owed(asUser(player))]).toEqual([true, false]);
    expect([await owed(asUserAtAal1(pending)), await owed(asUser(pending))]).toEqual([false, false]);
    expect(await db().call(asUser(pending), "get_my_account")).toMatchObject({
      approved: false,
      welcome_due: false,
      credits: 0,
    });
  });

  it("answers the same account after the profile rows were lost and made again", async () => {
    const id = await db().createPlayer({ credits: 12.5 });
    const before = await db().call<Record<string, unknown>>(asUser(id), "get_my_account");
    await db().sql("delete from public.profiles where id = $1", [id]);
    const after = await db().call<Record<string, unknown>>(asUser(id), "get_my_account");
    expect(after).toMatchObject({ id, credits: 12.5, approved: true, email: before.email });
  });
});

describe("update_my_profile", () => {
  it("changes the caller's name (trimmed) and notification preference, never their marketing consent", async () => {
    const id = await db().createUser({ meta: { name: "Before" } });
    const other = await db().createUser({ meta: { name: "Bystander" } });
    const account = await db().call(asUser(id), "update_my_profile", {
      p_name: "  After  ",
      p_email_notifications: false,
    });
    expect(account).toMatchObject({ id, name: "After", email_notifications: false });
    const columns = "select name, email_notifications, marketing_consent from public.profiles where id = $1";
    const [row] = await db().sql(columns, [id]);
    expect(row).toEqual({ name: "After", email_notifications: false, marketing_consent: false });
    const [untouched] = await db().sql(columns, [other]);
    expect(untouched).toEqual({ name: "Bystander", email_notifications: true, marketing_consent: false });
    // Turning notifications back on records no marketing consent.
    await db().call(asUser(id), "update_my_profile", { p_email_notifications: true });
    expect(await db().sql(columns, [id])).toEqual([
      { name: "After", email_notifications: true, marketing_consent: false },
    ]);
    expect(await db().sql("select source from public.marketing_consents where user_id = $1", [id])).toEqual([
      { source: "not_asked" },
    ]);
  });

  it("leaves a field alone when it is not given", async () => {
    const id = await db().createUser({ meta: { name: "Keep Me" } });
    await db().call(asUser(id), "update_my_profile", { p_email_notifications: false });
    expect(await db().call(asUser(id), "update_my_profile", { p_name: "Renamed" })).toMatchObject({
      name: "Renamed",
      email_notifications: false,
    });
  });

  it("keeps the town trimmed, leaves it alone when not given, clears it with an empty string", async () => {
    const id = await db().createUser();
    expect(await db().call(asUser(id), "update_my_profile", { p_town: "  Leeds " })).toMatchObject({ town: "Leeds" });
    expect(await db().call(asUser(id), "update_my_profile", { p_name: "Still Leeds" })).toMatchObject({
      town: "Leeds",
    });
    expect(await db().call(asUser(id), "update_my_profile", { p_town: "" })).toMatchObject({ town: null });
    const res = await db().rpc(asUser(id), "update_my_profile", { p_town: "t".repeat(61) });
    expect(res.error).toEqual({ code: "22023", message: "Town must be at most 60 characters", hint: "invalid_input" });
  });

  it("accepts a 100-character name", async () => {
    const id = await db().createUser();
    const account = await db().call<{ name: string }>(asUser(id), "update_my_profile", { p_name: "x".repeat(100) });
    expect(account.name).toHaveLength(100);
  });

  it.each([
    ["empty", ""],
    ["blank", "    "],
    ["101 characters", "y".repeat(101)],
  ])("refuses a %s name and writes nothing, not even the other field", async (_label, name) => {
    const id = await db().createUser({ meta: { name: "Steady" } });
    const [before] = await db().sql("select * from public.profiles where id = $1", [id]);
    const res = await db().rpc(asUser(id), "update_my_profile", { p_name: name, p_email_notifications: false });
    expect(res.error).toEqual({
      code: "22023",
      message: "Name must be between 1 and 100 characters",
      hint: "invalid_input",
    });
    const [after] = await db().sql("select * from public.profiles where id = $1", [id]);
    expect(after).toEqual(before);
  });
});

describe("user operations need a signed-in user (spec §5)", () => {
  it("anon (no session) may not execute any user RPC: the gateway answers 401", async () => {
    const someone = await db().createUser({ approved: true, credits: 10 });
    for (const [fn, args] of userRpcs(someone)) {
      const res = await db().rpc(anon, fn, args);
      expect(res.error, fn).toEqual({ code: "42501", message: `permission denied for function ${fn}` });
    }
    expect(await db().credits(someone)).toBe(10);
  });

  it("a caller with a role but no user id is told 'User not authenticated'", async () => {
    const someone = await db().createUser({ approved: true, credits: 10 });
    const noUser: Caller = { role: "authenticated" };
    for (const [fn, args] of userRpcs(someone)) {
      const res = await db().rpc(noUser, fn, args);
      expect(res.error, fn).toEqual(NOT_AUTHENTICATED);
    }
    // The server's secret key is not a user either, for the functions about "me" and admin work.
    for (const fn of ["get_my_account", "update_my_profile", "get_my_ledger", "admin_list_pending_approvals"]) {
      const args = Object.fromEntries(userRpcs(someone))[fn];
      const res = await db().rpc(service, fn, args);
      expect(res.error, fn).toEqual(NOT_AUTHENTICATED);
    }
    expect(await db().credits(someone)).toBe(10);
  });
});
