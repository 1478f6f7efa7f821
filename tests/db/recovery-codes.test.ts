// An admin's recovery codes: ten made at once and shown once, kept only as salted hashes, each spent once, only in
// a session begun with the password, every use audited; a spent code lets that session remove its own factors.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { asUserAtAal1, dbPerFile, type Caller } from "./support";

const db = dbPerFile();

let admin: string;

/** A session of the user's, begun as the auth server records it (`method`: password, otp, magiclink…). */
async function newSession(userId: string, method: string): Promise<{ aal1: Caller; aal2: Caller }> {
  const [{ id }] = await db().sql<{ id: string }>("insert into auth.sessions (user_id) values ($1) returning id", [
    userId,
  ]);
  await db().sql("insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, $2)", [id, method]);
  return {
    aal1: { role: "authenticated", sub: userId, aal: "aal1", session_id: id },
    aal2: { role: "authenticated", sub: userId, aal: "aal2", session_id: id },
  };
}

async function verifiedFactor(userId: string): Promise<string> {
  const [{ id }] = await db().sql<{ id: string }>(
    "insert into auth.mfa_factors (user_id, friendly_name, factor_type, status, secret) values ($1, $2, 'totp', 'verified', 'S') returning id",
    [userId, `App ${randomUUID()}`],
  );
  return id;
}

async function newCodes(userId: string): Promise<string[]> {
  const { aal2 } = await newSession(userId, "password");
  return db().call<string[]>(aal2, "create_recovery_codes");
}

const audit = async (userId: string, action: string) =>
  db().sql<{ details: Record<string, unknown> }>(
    "select details from public.activity_log where subject_id = $1 and action = $2 order by id",
    [userId, action],
  );

beforeAll(async () => {
  admin = await db().createAdmin();
});

describe("recovery codes", () => {
  it("are ten, each shown once and stored only as a salted hash", async () => {
    const codes = await newCodes(admin);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes)
      expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/);
    const stored = await db().sql<{ row: string }>(
      "select r::text as row from private.recovery_codes r where user_id = $1",
      [admin],
    );
    expect(stored).toHaveLength(10);
    const plain = codes.map((c) => c.replaceAll("-", ""));
    for (const { row } of stored) for (const code of plain) expect(row).not.toContain(code);
    // No two rows share a hash: each has its own salt.
    const [{ hashes }] = await db().sql<{ hashes: number }>(
      "select count(distinct encode(code_hash, 'hex'))::int as hashes from private.recovery_codes where user_id = $1",
      [admin],
    );
    expect(hashes).toBe(10);
    expect((await audit(admin, "user.recovery_codes_created")).at(-1)?.details).toMatchObject({ codes: 10 });
    // Nobody reads them but the functions.
    expect((await db().rpc(asUserAtAal1(admin), "create_recovery_codes")).error).toMatchObject({
      hint: "aal2_required",
    });
    const player = await db().createUser({ approved: true });
    expect((await db().rpc({ role: "authenticated", sub: player }, "create_recovery_codes")).error).toMatchObject({
      hint: "admin_required",
    });
  });

  it("work once each, only in a session begun with the password, and every use is audited", async () => {
    const codes = await newCodes(admin);
    const byLink = await newSession(admin, "otp");
    expect((await db().rpc(byLink.aal1, "use_recovery_code", { p_code: codes[0] })).error).toMatchObject({
      hint: "password_session_required",
      message: "A recovery code works only after signing in with your password.",
    });
    const byMagicLink = await newSession(admin, "magiclink");
    expect((await db().rpc(byMagicLink.aal1, "use_recovery_code", { p_code: codes[0] })).error).toMatchObject({
      hint: "password_session_required",
    });

    const session = await newSession(admin, "password");
    expect(await db().call(session.aal1, "get_my_recovery_state")).toEqual({ codes_left: 10, recovery_open: false });
    // Typed loosely: upper case, spaces instead of dashes.
    expect(
      await db().call(session.aal1, "use_recovery_code", {
        p_code: ` ${codes[0].toUpperCase().replaceAll("-", " ")} `,
      }),
    ).toBe(true);
    expect(await db().call(session.aal1, "use_recovery_code", { p_code: codes[0] })).toBe(false);
    expect(await db().call(session.aal1, "use_recovery_code", { p_code: "0000-0000-0000" })).toBe(false);
    expect(await db().call(session.aal1, "get_my_recovery_state")).toEqual({ codes_left: 9, recovery_open: true });
    expect((await audit(admin, "user.recovery_code_used")).at(-1)?.details).toEqual({ codes_left: 9 });
    expect(await audit(admin, "user.recovery_code_refused")).toHaveLength(2);

    // Another admin's code is not this admin's.
    const other = await db().createAdmin();
    const othersCodes = await newCodes(other);
    expect(await db().call(session.aal1, "use_recovery_code", { p_code: othersCodes[0] })).toBe(false);
  });

  it("refuse a caller without an unused code, writing nothing (players have none)", async () => {
    const player = await db().createUser({ approved: true });
    const session = await newSession(player, "password");
    expect((await db().rpc(session.aal1, "use_recovery_code", { p_code: "0000-0000-0000" })).error).toMatchObject({
      hint: "no_recovery_codes",
    });
    expect(await audit(player, "user.recovery_code_refused")).toHaveLength(0);
  });

  it("let only the session that used one remove its own factors, for fifteen minutes", async () => {
    const owner = await db().createAdmin();
    const codes = await newCodes(owner);
    const lost = await verifiedFactor(owner);
    const session = await newSession(owner, "password");
    const elsewhere = await newSession(owner, "password");
    const removal = (caller: Caller, factor: string) =>
      db().rpc(caller, "record_factor_removal_with_recovery_code", { p_factor_id: factor });

    expect((await removal(session.aal1, lost)).error).toMatchObject({ hint: "recovery_code_needed" });
    expect(await db().call(session.aal1, "use_recovery_code", { p_code: codes[3] })).toBe(true);
    expect((await removal(elsewhere.aal1, lost)).error).toMatchObject({ hint: "recovery_code_needed" });
    // Only the user's own factors.
    const someoneElses = await verifiedFactor(admin);
    expect((await removal(session.aal1, someoneElses)).error).toMatchObject({ hint: "factor_not_found" });
    expect((await removal(session.aal1, lost)).error).toBeNull();
    expect((await audit(owner, "user.factor_removed_with_recovery_code")).at(-1)?.details).toMatchObject({
      factor_id: lost,
    });
    // The codes left are void: the new authenticator comes with new ones.
    expect(await db().call(session.aal1, "get_my_recovery_state")).toEqual({ codes_left: 0, recovery_open: true });
    const refusalsBefore = (await audit(owner, "user.recovery_code_refused")).length;
    expect((await db().rpc(elsewhere.aal1, "use_recovery_code", { p_code: codes[4] })).error).toMatchObject({
      hint: "no_recovery_codes",
    });
    expect(await audit(owner, "user.recovery_code_refused")).toHaveLength(refusalsBefore);

    await db().sql(
      "update private.recovery_codes set used_at = now() - interval '16 minutes' where user_id = $1 and used_at is not null",
      [owner],
    );
    expect((await removal(session.aal1, lost)).error).toMatchObject({ hint: "recovery_code_needed" });
  });

  it("regenerated, void every unused earlier code", async () => {
    const owner = await db().createAdmin();
    const first = await newCodes(owner);
    const second = await newCodes(owner);
    const session = await newSession(owner, "password");
    expect(await db().call(session.aal1, "use_recovery_code", { p_code: first[1] })).toBe(false);
    expect(await db().call(session.aal1, "use_recovery_code", { p_code: second[1] })).toBe(true);
    expect((await audit(owner, "user.recovery_codes_created")).at(-1)?.details).toEqual({ codes: 10, voided: 10 });
  });

  it("are void after a super admin resets the admin's two-step verification, and only that admin's", async () => {
    const owner = await db().createAdmin();
    const other = await db().createAdmin();
    const codes = await newCodes(owner);
    const othersCodes = await newCodes(other);
    const session = await newSession(owner, "password");
    expect(await db().call(session.aal1, "use_recovery_code", { p_code: codes[0] })).toBe(true);

    const superAdmin = await db().createUser({ role: "super_admin", approved: true });
    await db().call({ role: "authenticated", sub: superAdmin }, "admin_record_two_step_reset", { p_user_id: owner });
    expect((await audit(owner, "user.two_step_reset")).at(-1)?.details).toEqual({ recovery_codes_voided: 9 });
    const later = await newSession(owner, "password");
    expect((await db().rpc(later.aal1, "use_recovery_code", { p_code: codes[1] })).error).toMatchObject({
      hint: "no_recovery_codes",
    });
    // The spent code stays on record (it says which session used it); the other admin's codes still work.
    const [{ spent }] = await db().sql<{ spent: number }>(
      "select count(*)::int as spent from private.recovery_codes where user_id = $1 and used_at is not null",
      [owner],
    );
    expect(spent).toBe(1);
    const theirs = await newSession(other, "password");
    expect(await db().call(theirs.aal1, "use_recovery_code", { p_code: othersCodes[0] })).toBe(true);
  });

  it("refuse after ten wrong codes in an hour", async () => {
    const owner = await db().createAdmin();
    const codes = await newCodes(owner);
    const session = await newSession(owner, "password");
    for (let i = 0; i < 10; i++)
      expect(await db().call(session.aal1, "use_recovery_code", { p_code: `wrong-${i}` })).toBe(false);
    expect((await db().rpc(session.aal1, "use_recovery_code", { p_code: codes[0] })).error).toMatchObject({
      hint: "too_many_recovery_codes",
    });
  });
});
