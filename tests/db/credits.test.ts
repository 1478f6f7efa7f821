// Credits: who may add, deduct and read; amount validation; the ledger is the truth
// (dbPerFile checks credits == sum(ledger) for every user after every test) and is append-only.
import { describe, expect, it } from "vitest";
import { ADMIN_REQUIRED, anon, asUser, service, dbPerFile, toDbError } from "./support";

const db = dbPerFile();
const APPEND_ONLY = { code: "42501", message: "The credit ledger is append-only", hint: "ledger_append_only" };

describe("add_credits", () => {
  it("the server adds credit: one admin_adjustment row, new balance returned", async () => {
    const id = await db().createUser({ approved: true });
    expect(await db().call(service, "add_credits", { user_id: id, amount: 12.5 })).toBe("12.50");
    expect(await db().call(service, "add_credits", { user_id: id, amount: 0.25 })).toBe("12.75");
    expect(await db().ledger(id)).toMatchObject([
      { kind: "admin_adjustment", amount: "12.50", balance_after: "12.50", reason: "Credit added", created_by: null },
      { kind: "admin_adjustment", amount: "0.25", balance_after: "12.75", reason: "Credit added", created_by: null },
    ]);
    expect(await db().credits(id)).toBe(12.75);
  });

  it("a paid top-up is recorded as top_up with the money paid", async () => {
    const id = await db().createUser({ approved: true });
    await db().call(service, "add_credits", { user_id: id, amount: 20, transaction_amount: 20 });
    expect(await db().ledger(id)).toMatchObject([
      { kind: "top_up", amount: "20.00", reason: "Credit purchase", transaction_amount: "20.00" },
    ]);
  });

  it("admins and super admins may not add credit through it: they adjust with a reason (admin_adjust_credit)", async () => {
    const admin = await db().createUser({ role: "admin", approved: true });
    const superAdmin = await db().createUser({ role: "super_admin", approved: true });
    const id = await db().createUser({ approved: true });
    for (const caller of [admin, superAdmin, id]) {
      const res = await db().rpc(asUser(caller), "add_credits", { user_id: id, amount: 5 });
      expect(res.error).toMatchObject({ code: "42501" });
    }
    expect(await db().credits(id)).toBe(0);
    expect(await db().ledger(id)).toEqual([]);
  });

  it("a user may not add credit, not even to themself", async () => {
    const id = await db().createUser({ approved: true, credits: 1 });
    for (const target of [id, await db().createUser({ approved: true })]) {
      const res = await db().rpc(asUser(id), "add_credits", { user_id: target, amount: 100 });
      expect(res.error).toMatchObject({ code: "42501" });
    }
    expect(await db().credits(id)).toBe(1);
    expect(await db().ledger(id)).toHaveLength(1);
  });

  it.each([
    [0, "Amount must be more than zero"],
    [-5, "Amount must be more than zero"],
    [null, "Amount must be more than zero"],
    [100000.01, "Amount is over the limit of 100000 credits"],
    [1.005, "Amount must be a non-zero number of pounds and pence"],
    ["NaN", "Amount must be a non-zero number of pounds and pence"],
    ["Infinity", "Amount must be a non-zero number of pounds and pence"],
    ["-Infinity", "Amount must be more than zero"],
  ])("refuses amount %s with %j and writes nothing", async (amount, message) => {
    const id = await db().createUser({ approved: true });
    const res = await db().rpc(service, "add_credits", { user_id: id, amount });
    expect(res.error).toEqual({ code: "22023", message, hint: "invalid_input" });
    expect(await db().ledger(id)).toEqual([]);
  });

  it("accepts exactly the limit", async () => {
    const id = await db().createUser({ approved: true });
    expect(await db().call(service, "add_credits", { user_id: id, amount: 100000 })).toBe("100000.00");
  });

  it.each([[-20], [0.001], ["NaN"], ["Infinity"], ["-Infinity"]])(
    "refuses a paid amount of %s and writes nothing",
    async (transaction_amount) => {
      const id = await db().createUser({ approved: true });
      const res = await db().rpc(service, "add_credits", { user_id: id, amount: 20, transaction_amount });
      expect(res.error).toEqual({
        code: "22023",
        message: "The amount paid must be zero or more, in pounds and pence",
        hint: "invalid_input",
      });
      expect(await db().ledger(id)).toEqual([]);
    },
  );

  it("refuses a user who does not exist", async () => {
    const res = await db().rpc(service, "add_credits", { user_id: "7b0c1a4e-0000-4000-8000-00000000beef", amount: 5 });
    expect(res.error).toEqual({ code: "PT404", message: "No such user", hint: "user_not_found" });
  });
});

describe("deduct_credits", () => {
  it("takes credit when the balance covers it (true), changes nothing when not (false)", async () => {
    const id = await db().createUser({ approved: true, credits: 10 });
    const me = asUser(id);
    expect(await db().call(me, "deduct_credits", { user_id: id, amount: 3 })).toBe(true);
    expect(await db().credits(id)).toBe(7);
    expect(await db().call(me, "deduct_credits", { user_id: id, amount: 7.01 })).toBe(false);
    expect(await db().credits(id)).toBe(7);
    expect(await db().call(me, "deduct_credits", { user_id: id, amount: 7 })).toBe(true);
    expect(await db().credits(id)).toBe(0);
    expect(await db().call(me, "deduct_credits", { user_id: id, amount: 0.01 })).toBe(false);
    expect(await db().ledger(id)).toMatchObject([
      { kind: "admin_adjustment", amount: "10.00", balance_after: "10.00" },
      { kind: "debit", amount: "-3.00", balance_after: "7.00", created_by: id },
      { kind: "debit", amount: "-7.00", balance_after: "0.00", created_by: id },
    ]);
  });

  it.each([[0], [-1], [0.001], [null]])("refuses amount %s and writes nothing", async (amount) => {
    const id = await db().createUser({ approved: true, credits: 5 });
    const res = await db().rpc(asUser(id), "deduct_credits", { user_id: id, amount });
    expect(res.error).toEqual({
      code: "22023",
      message: "Amount must be more than zero, in pounds and pence",
      hint: "invalid_input",
    });
    expect(await db().ledger(id)).toHaveLength(1);
  });

  it("refuses to touch another user's balance, an admin's call included; the server may", async () => {
    const thief = await db().createUser({ approved: true, credits: 1 });
    const victim = await db().createUser({ approved: true, credits: 50 });
    const admin = await db().createUser({ role: "admin", approved: true });
    for (const caller of [thief, admin]) {
      const res = await db().rpc(asUser(caller), "deduct_credits", { user_id: victim, amount: 10 });
      expect(res.error).toEqual({ code: "42501", message: "You can only spend your own credit", hint: "self_only" });
    }
    expect(await db().credits(victim)).toBe(50);
    expect(await db().call(service, "deduct_credits", { user_id: victim, amount: 10 })).toBe(true);
    expect(await db().credits(victim)).toBe(40);
  });

  it("refuses an unapproved or rejected user even with credit; the server may still deduct", async () => {
    const pending = await db().createUser({ credits: 20 });
    const rejected = await db().createUser({ approved: true, credits: 20 });
    const admin = await db().createUser({ role: "admin", approved: true });
    await db().call(asUser(admin), "admin_reject_user", { p_user_id: rejected, p_reason: "Duplicate account" });
    const refused = {
      [pending]: { message: "Your account is awaiting approval", hint: "approval_pending" },
      [rejected]: { message: "Your account was not approved, so you cannot spend credit", hint: "approval_rejected" },
    };
    for (const id of [pending, rejected]) {
      const res = await db().rpc(asUser(id), "deduct_credits", { user_id: id, amount: 1 });
      expect(res.error).toEqual({ code: "P0001", ...refused[id] });
      expect(await db().credits(id)).toBe(20);
    }
    expect(await db().call(service, "deduct_credits", { user_id: pending, amount: 1 })).toBe(true);
    expect(await db().credits(pending)).toBe(19);
  });

  it("returns false for a user who does not exist", async () => {
    expect(
      await db().call(service, "deduct_credits", { user_id: "7b0c1a4e-0000-4000-8000-00000000beef", amount: 1 }),
    ).toBe(false);
  });
});

describe("get_credit_balance", () => {
  it("the user themself, an admin and the server may read it; another user may not", async () => {
    const id = await db().createUser({ approved: true, credits: 8.4 });
    const other = await db().createUser({ approved: true });
    const admin = await db().createUser({ role: "admin", approved: true });
    expect(await db().call(asUser(id), "get_credit_balance", { user_id: id })).toBe("8.40");
    expect(await db().call(asUser(admin), "get_credit_balance", { user_id: id })).toBe("8.40");
    expect(await db().call(service, "get_credit_balance", { user_id: id })).toBe("8.40");
    expect((await db().rpc(asUser(other), "get_credit_balance", { user_id: id })).error).toEqual(ADMIN_REQUIRED);
    expect((await db().rpc(anon, "get_credit_balance", { user_id: id })).error?.code).toBe("42501");
  });
});

describe("get_my_ledger", () => {
  it("lists only the caller's rows, newest first, paged by id", async () => {
    const id = await db().createUser({ approved: true });
    const other = await db().createUser({ approved: true, credits: 99 });
    for (const amount of [1, 2, 3, 4]) await db().call(service, "add_credits", { user_id: id, amount });
    const all = await db().call<Array<{ id: number; amount: string }>>(asUser(id), "get_my_ledger");
    expect(all.map((r) => r.amount)).toEqual(["4.00", "3.00", "2.00", "1.00"]);
    const page = await db().call<Array<{ amount: string }>>(asUser(id), "get_my_ledger", {
      p_limit: 2,
      p_before: all[1].id,
    });
    expect(page.map((r) => r.amount)).toEqual(["2.00", "1.00"]);
    expect(await db().call<unknown[]>(asUser(id), "get_my_ledger", { p_limit: 0 })).toHaveLength(1);
    expect(await db().call<unknown[]>(asUser(other), "get_my_ledger")).toMatchObject([{ amount: "99.00" }]);
  });
});

describe("the ledger is append-only", () => {
  it("refuses update, delete and truncate even for the server and the database owner", async () => {
    const id = await db().createUser({ approved: true, credits: 10 });
    for (const sql of [
      "update public.credit_ledger set amount = 1000 where user_id = $1",
      "delete from public.credit_ledger where user_id = $1",
    ]) {
      expect((await db().as(service, sql, [id])).error).toEqual(APPEND_ONLY);
      const owner = await db()
        .sql(sql, [id])
        .then(() => null, toDbError);
      expect(owner).toEqual(APPEND_ONLY);
    }
    expect((await db().as(service, "truncate public.credit_ledger")).error).toEqual(APPEND_ONLY);
    expect(await db().ledger(id)).toMatchObject([{ amount: "10.00" }]);
  });

  it("users may not write the ledger or their balance at all", async () => {
    const id = await db().createUser({ approved: true, credits: 10 });
    const me = asUser(id);
    for (const sql of [
      "insert into public.credit_ledger (user_id, kind, amount, balance_after) values ($1, 'bonus', 1000, 1010)",
      "update public.user_account_data set credits = 1000 where id = $1",
    ]) {
      expect((await db().as(me, sql, [id])).error?.code).toBe("42501");
    }
    expect(await db().credits(id)).toBe(10);
  });
});
