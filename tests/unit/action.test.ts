import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineActionWith, formCheckbox, formInput } from "@/lib/actions/action";
import { authorise, sessionRefusal, type SessionFacts } from "@/lib/auth/calling-policy";
import { ok } from "@/lib/actions/result";
import type { MyAccount } from "@/lib/data/account-schema";
import { DbError } from "@/lib/data/errors";

const baseAccount: MyAccount = {
  id: "00000000-0000-4000-8000-000000000001",
  name: "Ada",
  email: "ada@example.test",
  email_notifications: true,
  date_of_birth: "1990-01-01",
  town: null,
  show_initials_only: false,
  credits: 10,
  role: "user",
  approved: true,
  approved_at: "2026-11-01T00:00:00Z",
  approved_by: null,
  rejected_at: null,
  rejection_reason: null,
  total_spent: 0,
  total_entries: 0,
  kyc_status: "none",
  is_verified: false,
  verified_at: null,
  age_verified: false,
  metadata: null,
  created_at: "2026-11-01T00:00:00Z",
  two_step_owed: false,
  welcome_due: false,
};
const account = (changes: Partial<MyAccount>): MyAccount => ({ ...baseAccount, ...changes });

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(key, v);
  return data;
};

/** A live session that passed the second step. */
const trusted = async (): Promise<SessionFacts> => ({ live: true, atSecondStep: true, hasSecondFactor: true });

const quantitySchema = z.object({
  competitionId: z.string().uuid("Unknown competition"),
  quantity: z.coerce.number().int("Choose a whole number of tickets").min(1, "Choose at least one ticket"),
});

describe("authorise", () => {
  it("lets anyone run a public action, even signed out", () => {
    expect(authorise("public", null)).toBeNull();
  });

  it("refuses a signed-out visitor every other role with the SQL's message and code", () => {
    for (const role of ["user", "approved", "admin", "super_admin"] as const) {
      expect(authorise(role, null)).toEqual({ ok: false, error: "User not authenticated", code: "not_authenticated" });
    }
  });

  it("tells a waiting or rejected user apart, and lets an approved one through", () => {
    expect(authorise("approved", account({ approved: false }))).toEqual({
      ok: false,
      error: "Your account is awaiting approval",
      code: "approval_pending",
    });
    expect(authorise("approved", account({ approved: false, rejected_at: "2026-11-02T00:00:00Z" }))).toEqual({
      ok: false,
      error: "Your account was not approved, so you cannot enter competitions",
      code: "approval_rejected",
    });
    expect(authorise("approved", account({}))).toBeNull();
    expect(authorise("user", account({ approved: false }))).toBeNull();
  });

  it("needs an admin or super admin for admin actions, and a super admin for super admin ones", () => {
    expect(authorise("admin", account({}))).toEqual({
      ok: false,
      error: "Access denied: Admin privileges required",
      code: "admin_required",
    });
    expect(authorise("admin", account({ role: "admin" }))).toBeNull();
    expect(authorise("admin", account({ role: "super_admin" }))).toBeNull();
    expect(authorise("super_admin", account({ role: "admin" }))).toEqual({
      ok: false,
      error: "Access denied: Super admin privileges required",
      code: "super_admin_required",
    });
    expect(authorise("super_admin", account({ role: "super_admin" }))).toBeNull();
  });
});

describe("formInput", () => {
  it("reads text fields, keeps repeated ones as a list and gives a file field its file", () => {
    const data = form({ name: "Ada", tag: ["a", "b"] });
    data.append("photo", new Blob(["x"], { type: "image/png" }), "photo.png");
    const input = formInput(data);
    expect(input).toMatchObject({ name: "Ada", tag: ["a", "b"] });
    expect(input.photo).toBeInstanceOf(File);
    expect((input.photo as File).name).toBe("photo.png");
    expect((input.photo as File).type).toBe("image/png");
  });

  it("reads a checkbox as ticked only when the form sent it", () => {
    expect(formCheckbox.parse("on")).toBe(true);
    expect(formCheckbox.parse(undefined)).toBe(false);
  });
});

describe("defineActionWith", () => {
  const seen: unknown[] = [];
  const defineAction = defineActionWith(async () => account({ approved: false }), trusted);
  const enter = defineAction({ schema: quantitySchema, role: "user" }, async (input, who) => {
    seen.push({ input, who: who.name });
    return ok(input.quantity * 2);
  });

  it("runs with the parsed input and the caller's account", async () => {
    const result = await enter(null, form({ competitionId: baseAccount.id, quantity: "3" }));
    expect(result).toEqual({ ok: true, data: 6 });
    expect(seen.at(-1)).toEqual({ input: { competitionId: baseAccount.id, quantity: 3 }, who: "Ada" });
  });

  it("answers bad input with a message per field and never runs", async () => {
    const before = seen.length;
    const result = await enter(null, form({ competitionId: "nope", quantity: "0" }));
    expect(result).toEqual({
      ok: false,
      error: "Unknown competition",
      fieldErrors: { competitionId: ["Unknown competition"], quantity: ["Choose at least one ticket"] },
    });
    expect(seen.length).toBe(before);
  });

  it("checks the role before reading the form", async () => {
    const approvedOnly = defineAction({ schema: quantitySchema, role: "approved" }, async () => ok(undefined));
    expect(await approvedOnly(null, form({}))).toEqual({
      ok: false,
      error: "Your account is awaiting approval",
      code: "approval_pending",
    });
    const signedOut = defineActionWith(async () => null, trusted)({ schema: quantitySchema, role: "user" }, async () =>
      ok(undefined),
    );
    expect(await signedOut(null, form({ competitionId: baseAccount.id, quantity: "1" }))).toMatchObject({
      code: "not_authenticated",
    });
  });

  it("does not look the account up for a public action", async () => {
    let lookedUp = false;
    const publicAction = defineActionWith(async () => {
      lookedUp = true;
      return null;
    }, trusted)({ schema: z.object({ email: z.string() }), role: "public" }, async (input, who) =>
      ok({ email: input.email, who }),
    );
    expect(await publicAction(null, form({ email: "a@b.test" }))).toEqual({
      ok: true,
      data: { email: "a@b.test", who: null },
    });
    expect(lookedUp).toBe(false);
  });

  it("asks the auth server about the session before an admin action or one that says so, and refuses a dead one", async () => {
    const asked: string[] = [];
    const revoked = defineActionWith(
      async () => account({ approved: true, role: "admin" }),
      async () => {
        asked.push("asked");
        return { live: false, atSecondStep: false, hasSecondFactor: false };
      },
    );
    let ran = false;
    const run = async () => {
      ran = true;
      return ok(undefined);
    };
    const refusal = { ok: false, error: "User not authenticated", code: "not_authenticated" };
    expect(await revoked({ schema: z.object({}), role: "admin" }, run)(null, form({}))).toEqual(refusal);
    expect(
      await revoked({ schema: z.object({}), role: "approved", confirmSession: true }, run)(null, form({})),
    ).toEqual(refusal);
    expect(asked).toHaveLength(2);
    expect(ran).toBe(false);
    // Everyday player actions trust the verified token: no round trip.
    expect(await revoked({ schema: z.object({}), role: "approved" }, run)(null, form({}))).toEqual({
      ok: true,
      data: undefined,
    });
    expect(asked).toHaveLength(2);
  });

  it("refuses a sensitive action at aal1 to an admin always, and to anyone else once they have a second factor", async () => {
    const secondStep = { ok: false, error: "Two-step verification required", code: "aal2_required" };
    const aal1 = { live: true, atSecondStep: false };
    expect(sessionRefusal("admin", { ...aal1, hasSecondFactor: false })).toEqual(secondStep);
    expect(sessionRefusal("super_admin", { ...aal1, hasSecondFactor: true })).toEqual(secondStep);
    expect(sessionRefusal("approved", { ...aal1, hasSecondFactor: true })).toEqual(secondStep);
    expect(sessionRefusal("approved", { ...aal1, hasSecondFactor: false })).toBeNull();
    expect(sessionRefusal("admin", { live: true, atSecondStep: true, hasSecondFactor: true })).toBeNull();

    const atAal1 = defineActionWith(
      async () => account({ approved: true, role: "admin" }),
      async () => ({ ...aal1, hasSecondFactor: false }),
    );
    let ran = false;
    const action = atAal1({ schema: z.object({}), role: "admin" }, async () => {
      ran = true;
      return ok(undefined);
    });
    expect(await action(null, form({}))).toEqual(secondStep);
    expect(ran).toBe(false);
  });

  it("refuses every action to a session that owes its second step, but those that give it, before anything runs", async () => {
    const secondStep = { ok: false, error: "Two-step verification required", code: "aal2_required" };
    const owing = account({ two_step_owed: true });
    for (const role of ["user", "approved", "admin", "super_admin"] as const) {
      const as = role === "admin" || role === "super_admin" ? account({ two_step_owed: true, role }) : owing;
      expect(authorise(role, as), role).toEqual(secondStep);
      expect(authorise(role, as, { firstStep: true }), role).toBeNull();
    }
    // The role is checked first: a player is told an admin action is for admins, as SQL says.
    expect(authorise("admin", owing)).toMatchObject({ code: "admin_required" });
    expect(authorise("approved", account({ two_step_owed: true, approved: false }))).toMatchObject({
      code: "approval_pending",
    });
    expect(authorise("public", null)).toBeNull();

    let ran = 0;
    const halfSignedIn = defineActionWith(async () => owing, trusted);
    const run = async () => {
      ran += 1;
      return ok(undefined);
    };
    expect(await halfSignedIn({ schema: quantitySchema, role: "approved" }, run)(null, form({}))).toEqual(secondStep);
    expect(ran).toBe(0);
    expect(await halfSignedIn({ schema: z.object({}), role: "user", firstStep: true }, run)(null, form({}))).toEqual({
      ok: true,
      data: undefined,
    });
    expect(ran).toBe(1);
  });

  it("turns a database refusal into the message and its code", async () => {
    const refused = defineAction({ schema: quantitySchema, role: "user" }, async () => {
      throw DbError.fromPostgrest(
        { code: "P0001", hint: "insufficient_credit", message: "Not enough credit: you need £4.00 more" },
        "enter_competition",
      );
    });
    expect(await refused(null, form({ competitionId: baseAccount.id, quantity: "1" }))).toEqual({
      ok: false,
      error: "Not enough credit: you need £4.00 more",
      code: "insufficient_credit",
    });
  });

  it("lets any other error through (Next's redirect travels as one)", async () => {
    const broken = defineAction({ schema: quantitySchema, role: "user" }, async () => {
      throw new Error("NEXT_REDIRECT");
    });
    await expect(broken(null, form({ competitionId: baseAccount.id, quantity: "1" }))).rejects.toThrow("NEXT_REDIRECT");
  });
});

describe("DbError.fromPostgrest", () => {
  it("takes the code from a known hint and keeps the SQLSTATE for logs", () => {
    const e = DbError.fromPostgrest(
      { code: "P0002", hint: "competition_not_found", message: "Competition not found", details: null },
      "get_competition",
    );
    expect(e).toMatchObject({
      code: "competition_not_found",
      message: "Competition not found",
      sqlState: "P0002",
      rpc: "get_competition",
    });
  });

  it("calls anything unlabelled or unknown 'unexpected'", () => {
    expect(DbError.fromPostgrest({ code: "42501", hint: null, message: "permission denied for function x" }).code).toBe(
      "unexpected",
    );
    expect(DbError.fromPostgrest({ code: "P0001", hint: "Try again later", message: "x" }).code).toBe("unexpected");
    expect(DbError.fromPostgrest({ message: "fetch failed" })).toMatchObject({ code: "unexpected", sqlState: null });
  });
});
