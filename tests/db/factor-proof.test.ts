// An admin's authenticator needs their inbox: a factor counts for the console
// only when it was enrolled right after its owner confirmed the code the auth server e-mailed them
// (GoTrue's reauthentication nonce, kept as sha224(address || code) in auth.users). Factors verified
// before that rule were grandfathered by the migration.
import { createHash, randomInt, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { AAL2_REQUIRED, asUser, dbPerFile, type Caller } from "./support";

const db = dbPerFile();

let admin: string;

/** Puts a reauthentication nonce on the user as the auth server's GET /reauthenticate does; answers the code. */
async function sendNonce(userId: string, sentMinutesAgo = 0): Promise<string> {
  const code = String(randomInt(10_000_000, 100_000_000));
  const [{ email: address }] = await db().sql<{ email: string }>("select email from auth.users where id = $1", [
    userId,
  ]);
  const hash = createHash("sha224").update(`${address.toLowerCase()}${code}`).digest("hex");
  await db().sql(
    "update auth.users set reauthentication_token = $2, reauthentication_sent_at = now() - make_interval(mins => $3) where id = $1",
    [userId, hash, sentMinutesAgo],
  );
  return code;
}

/** A session of the user's, as the auth server keeps one; the callers below speak for it. */
async function newSession(userId: string): Promise<{ id: string; aal1: Caller; aal2: Caller }> {
  const [{ id }] = await db().sql<{ id: string }>("insert into auth.sessions (user_id) values ($1) returning id", [
    userId,
  ]);
  return {
    id,
    aal1: { role: "authenticated", sub: userId, aal: "aal1", session_id: id },
    aal2: { role: "authenticated", sub: userId, aal: "aal2", session_id: id },
  };
}

/** A factor verified in `sessionId`, as the auth server records it when its first code is given there. */
async function verifiedFactor(userId: string, sessionId?: string): Promise<string> {
  const [{ id }] = await db().sql<{ id: string }>(
    "insert into auth.mfa_factors (user_id, friendly_name, factor_type, status, secret) values ($1, $2, 'totp', 'verified', 'S') returning id",
    [userId, `App ${randomUUID()}`],
  );
  if (sessionId) await db().sql("update auth.sessions set aal = 'aal2', factor_id = $2 where id = $1", [sessionId, id]);
  return id;
}

const isAdmin = async (userId: string) => (await db().call<boolean>(asUser(userId), "is_admin")) === true;

beforeAll(async () => {
  admin = await db().createAdmin();
});

describe("an admin's new authenticator", () => {
  it("does not open the console until it is proven with a code from the inbox, in the same session", async () => {
    const session = await newSession(admin);
    await verifiedFactor(admin, session.id);
    expect(await isAdmin(admin)).toBe(false);
    expect((await db().rpc(session.aal2, "admin_list_users", {})).error).toMatchObject(AAL2_REQUIRED);
    // The enrolment alone, without the inbox, proves nothing.
    expect((await db().rpc(session.aal2, "record_factor_enrolment")).error).toMatchObject({
      hint: "reauthentication_needed",
    });

    const code = await sendNonce(admin);
    expect(await db().call(session.aal1, "confirm_reauthentication", { p_code: code })).toBe(true);
    expect(await db().call(session.aal2, "get_my_factor_proof")).toEqual({
      factors_proven: false,
      inbox_confirmed: true,
    });
    // At aal1 the enrolment is not finished.
    expect((await db().rpc(session.aal1, "record_factor_enrolment")).error).toMatchObject(AAL2_REQUIRED);
    await db().call(session.aal2, "record_factor_enrolment");
    expect(await isAdmin(admin)).toBe(true);
    expect(await db().call(session.aal2, "get_my_factor_proof")).toEqual({
      factors_proven: true,
      inbox_confirmed: false,
    });
    const audit = await db().sql("select action from public.activity_log where subject_id = $1", [admin]);
    expect(audit).toContainEqual({ action: "user.two_step_enrolled" });
  });

  it("another session holding the password gains nothing from the owner's confirmation", async () => {
    const owner = await newSession(admin);
    const intruder = await newSession(admin);
    expect(await db().call(owner.aal1, "confirm_reauthentication", { p_code: await sendNonce(admin) })).toBe(true);
    // The intruder sees no confirmation of theirs, and their own authenticator stays unproven.
    expect(await db().call(intruder.aal1, "get_my_factor_proof")).toMatchObject({ inbox_confirmed: false });
    await verifiedFactor(admin, intruder.id);
    expect((await db().rpc(intruder.aal2, "record_factor_enrolment")).error).toMatchObject({
      hint: "reauthentication_needed",
    });
    // The owner's enrolment proves only the factor their own session verified, never the intruder's.
    await verifiedFactor(admin, owner.id);
    await db().call(owner.aal2, "record_factor_enrolment");
    expect(await isAdmin(admin)).toBe(false);
  });

  it("a code works once, within ten minutes, and within five tries", async () => {
    const { aal1 } = await newSession(admin);
    const code = await sendNonce(admin);
    const wrong = code === "12345678" ? "87654321" : "12345678";
    for (let i = 0; i < 5; i++)
      expect(await db().call(aal1, "confirm_reauthentication", { p_code: wrong })).toBe(false);
    // Five wrong tries void the code, the right one included, and the answer says to ask for a new one.
    expect((await db().rpc(aal1, "confirm_reauthentication", { p_code: code })).error).toMatchObject({
      hint: "email_code_void",
      message: "Too many wrong codes: that code no longer works. Ask for a new code.",
    });

    const fresh = await sendNonce(admin);
    expect(await db().call(aal1, "confirm_reauthentication", { p_code: fresh })).toBe(true);
    expect(await db().call(aal1, "confirm_reauthentication", { p_code: fresh })).toBe(false);

    const old = await sendNonce(admin, 11);
    expect(await db().call(aal1, "confirm_reauthentication", { p_code: old })).toBe(false);
  });

  it("ten wrong tries in a day, across new codes, close the door until the day is over", async () => {
    const user = await db().createAdmin();
    const { aal1 } = await newSession(user);
    for (let nonce = 0; nonce < 2; nonce++) {
      const code = await sendNonce(user, 2 - nonce);
      const wrong = code === "12345678" ? "87654321" : "12345678";
      for (let i = 0; i < 5; i++) await db().call(aal1, "confirm_reauthentication", { p_code: wrong });
    }
    expect(await db().call(aal1, "confirm_reauthentication", { p_code: await sendNonce(user) })).toBe(false);
  });

  it("another user's code proves nothing for this one", async () => {
    const player = await db().createPlayer();
    const theirs = await sendNonce(player);
    await sendNonce(admin);
    const { aal1 } = await newSession(admin);
    expect(await db().call(aal1, "confirm_reauthentication", { p_code: theirs })).toBe(false);
  });

  it("refuses a code that is not 6 to 10 digits, and callers who are not signed in", async () => {
    expect((await db().rpc(asUser(admin), "confirm_reauthentication", { p_code: "12ab" })).error).toMatchObject({
      hint: "invalid_input",
    });
    expect((await db().rpc({ role: "anon" }, "confirm_reauthentication", { p_code: "12345678" })).error).not.toBeNull();
  });
});
