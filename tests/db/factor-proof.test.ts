// An admin's authenticator needs their inbox (issue "Safe to open" 4): a factor counts for the console
// only when it was enrolled right after its owner confirmed the code the auth server e-mailed them
// (GoTrue's reauthentication nonce, kept as sha224(address || code) in auth.users). Factors verified
// before that rule were grandfathered by the migration.
import { createHash, randomInt, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { AAL2_REQUIRED, asUser, asUserAtAal1, dbPerFile } from "./support";

const db = dbPerFile();

let admin: string;

/** Puts a reauthentication nonce on the user as the auth server's GET /reauthenticate does; answers the code. */
async function sendNonce(userId: string, sentMinutesAgo = 0): Promise<string> {
  const code = String(randomInt(100000, 1000000));
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

/** A verified factor, as the auth server records one when its first code is given. */
async function verifiedFactor(userId: string): Promise<string> {
  const [{ id }] = await db().sql<{ id: string }>(
    "insert into auth.mfa_factors (user_id, friendly_name, factor_type, status, secret) values ($1, $2, 'totp', 'verified', 'S') returning id",
    [userId, `App ${randomUUID()}`],
  );
  return id;
}

const isAdmin = async (userId: string) => (await db().call<boolean>(asUser(userId), "is_admin")) === true;

beforeAll(async () => {
  admin = await db().createAdmin();
});

describe("an admin's new authenticator", () => {
  it("does not open the console until it is proven with a code from the inbox", async () => {
    await verifiedFactor(admin);
    expect(await isAdmin(admin)).toBe(false);
    expect((await db().rpc(asUser(admin), "admin_list_users", {})).error).toMatchObject(AAL2_REQUIRED);
    // The enrolment alone, without the inbox, proves nothing.
    expect((await db().rpc(asUser(admin), "record_factor_enrolment")).error).toMatchObject({
      hint: "reauthentication_needed",
    });

    const code = await sendNonce(admin);
    expect(await db().call(asUserAtAal1(admin), "confirm_reauthentication", { p_code: code })).toBe(true);
    expect(await db().call(asUser(admin), "get_my_factor_proof")).toEqual({
      factors_proven: false,
      inbox_confirmed: true,
    });
    // At aal1 the enrolment is not finished.
    expect((await db().rpc(asUserAtAal1(admin), "record_factor_enrolment")).error).toMatchObject(AAL2_REQUIRED);
    await db().call(asUser(admin), "record_factor_enrolment");
    expect(await isAdmin(admin)).toBe(true);
    expect(await db().call(asUser(admin), "get_my_factor_proof")).toEqual({
      factors_proven: true,
      inbox_confirmed: false,
    });
    const audit = await db().sql("select action from public.activity_log where subject_id = $1", [admin]);
    expect(audit).toContainEqual({ action: "user.two_step_enrolled" });
  });

  it("a confirmation is spent by one enrolment: a later factor needs a new code", async () => {
    await verifiedFactor(admin);
    expect(await isAdmin(admin)).toBe(false);
    expect((await db().rpc(asUser(admin), "record_factor_enrolment")).error).toMatchObject({
      hint: "reauthentication_needed",
    });
  });

  it("a code works once, within the hour, and within five tries", async () => {
    const code = await sendNonce(admin);
    const wrong = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 5; i++)
      expect(await db().call(asUserAtAal1(admin), "confirm_reauthentication", { p_code: wrong })).toBe(false);
    // Five wrong tries burn the code, the right one included.
    expect(await db().call(asUserAtAal1(admin), "confirm_reauthentication", { p_code: code })).toBe(false);

    const fresh = await sendNonce(admin);
    expect(await db().call(asUserAtAal1(admin), "confirm_reauthentication", { p_code: fresh })).toBe(true);
    expect(await db().call(asUserAtAal1(admin), "confirm_reauthentication", { p_code: fresh })).toBe(false);

    const old = await sendNonce(admin, 61);
    expect(await db().call(asUserAtAal1(admin), "confirm_reauthentication", { p_code: old })).toBe(false);
  });

  it("another user's code proves nothing for this one", async () => {
    const player = await db().createPlayer();
    const theirs = await sendNonce(player);
    await sendNonce(admin);
    expect(await db().call(asUserAtAal1(admin), "confirm_reauthentication", { p_code: theirs })).toBe(false);
  });

  it("refuses a code that is not six digits, and callers who are not signed in", async () => {
    expect((await db().rpc(asUser(admin), "confirm_reauthentication", { p_code: "12ab" })).error).toMatchObject({
      hint: "invalid_input",
    });
    expect((await db().rpc({ role: "anon" }, "confirm_reauthentication", { p_code: "123456" })).error).not.toBeNull();
  });
});
