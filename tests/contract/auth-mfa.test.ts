// Second factors as GoTrue has them (internal/api/mfa.go), driven through supabase-js's mfa API:
// TOTP enrolment, challenges, verification raising the session to aal2, unenrolment, the admin API,
// and the refusals and error codes along the way.
import { describe, expect, it } from "vitest";
import { startEmbeddedServer } from "@/supabase/embedded";
import { NO_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { totpCode } from "@labcash/embedded-supabase/totp";
import { adminClient, client, raw, signIn, signInAtAal2, STRONG_PASSWORD, uniqueEmail } from "./helpers";
import { contractServer } from "./support/server";

const contract = contractServer();

/** A confirmed account of its own, signed in with its password (aal1). */
async function newUser() {
  const email = uniqueEmail("mfa");
  const { error } = await adminClient(contract.server).auth.admin.createUser({
    email,
    password: STRONG_PASSWORD,
    email_confirm: true,
    user_metadata: { name: "Mo Factor", date_of_birth: "1990-01-01" },
  });
  if (error) throw error;
  return { email, ...(await signIn(contract.server, email, STRONG_PASSWORD)) };
}

function claimsOf(accessToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(accessToken.split(".")[1], "base64url").toString());
}

describe("enrolling a TOTP factor", () => {
  it("answers with GoTrue's shape: a QR code, the secret and its otpauth URI; the factor is unverified", async () => {
    const { client: c, email } = await newUser();
    const { data, error } = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    expect(error).toBeNull();
    expect(data).toMatchObject({ type: "totp", friendly_name: "Phone" });
    expect(data!.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data!.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    const uri = new URL(data!.totp.uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe(`/localhost:3000:${email}`);
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      algorithm: "SHA1",
      digits: "6",
      issuer: "localhost:3000",
      period: "30",
      secret: data!.totp.secret,
    });

    const { data: user } = await c.auth.getUser();
    expect(user.user!.factors).toEqual([
      expect.objectContaining({ id: data!.id, status: "unverified", factor_type: "totp", friendly_name: "Phone" }),
    ]);
    // listFactors counts verified factors only, so the assurance level cannot rise yet.
    expect((await c.auth.mfa.listFactors()).data!.totp).toEqual([]);
    expect((await c.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal1",
    });
  });

  it("refuses a second factor with the same name, and phone or WebAuthn factors (disabled here)", async () => {
    const { client: c } = await newUser();
    await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    const same = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    expect(same.error).toMatchObject({ status: 422, code: "mfa_factor_name_conflict" });
    const phone = await c.auth.mfa.enroll({ factorType: "phone", phone: "+447700900123" });
    expect(phone.error).toMatchObject({ status: 422, code: "mfa_phone_enroll_not_enabled" });
  });

  it("needs a session", async () => {
    const res = await raw(contract.server, "/auth/v1/factors", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ factor_type: "totp" }),
    });
    expect(res.status).toBe(401);
  });
});

describe("verifying a code", () => {
  it("raises the session to aal2 with totp in its amr, verifies the factor and keeps aal2 across refreshes", async () => {
    const { client: c } = await newUser();
    const { data: factor } = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    const { data: challenge, error: challengeError } = await c.auth.mfa.challenge({ factorId: factor!.id });
    expect(challengeError).toBeNull();
    expect(challenge).toMatchObject({ type: "totp" });
    expect(challenge!.expires_at - Date.now() / 1000).toBeGreaterThan(290);

    const { data, error } = await c.auth.mfa.verify({
      factorId: factor!.id,
      challengeId: challenge!.id,
      code: totpCode(factor!.totp.secret),
    });
    expect(error).toBeNull();
    const claims = claimsOf(data!.access_token);
    expect(claims.aal).toBe("aal2");
    expect((claims.amr as { method: string }[]).map((a) => a.method).sort()).toEqual(["password", "totp"]);
    expect(data!.user.factors).toEqual([expect.objectContaining({ id: factor!.id, status: "verified" })]);
    expect((await c.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal2",
      nextLevel: "aal2",
    });

    const refreshed = await c.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(claimsOf(refreshed.data.session!.access_token).aal).toBe("aal2");
  });

  it("refuses a wrong or empty code, an answered, unknown or expired challenge, and another user's factor", async () => {
    const { client: c } = await newUser();
    const { data: factor } = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    const secret = factor!.totp.secret;
    const { data: challenge } = await c.auth.mfa.challenge({ factorId: factor!.id });
    const wrongCode = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, "0");

    const wrong = await c.auth.mfa.verify({ factorId: factor!.id, challengeId: challenge!.id, code: wrongCode });
    expect(wrong.error).toMatchObject({
      status: 422,
      code: "mfa_verification_failed",
      message: "Invalid TOTP code entered",
    });
    const empty = await c.auth.mfa.verify({ factorId: factor!.id, challengeId: challenge!.id, code: "" });
    expect(empty.error).toMatchObject({ status: 400, code: "validation_failed" });
    const unknown = await c.auth.mfa.verify({
      factorId: factor!.id,
      challengeId: "00000000-0000-4000-8000-00000000abcd",
      code: totpCode(secret),
    });
    expect(unknown.error).toMatchObject({ status: 422, code: "mfa_factor_not_found" });

    const right = await c.auth.mfa.verify({ factorId: factor!.id, challengeId: challenge!.id, code: totpCode(secret) });
    expect(right.error).toBeNull();
    const answered = await c.auth.mfa.verify({
      factorId: factor!.id,
      challengeId: challenge!.id,
      code: totpCode(secret),
    });
    expect(answered.error).toMatchObject({ status: 422, code: "mfa_ip_address_mismatch" });

    const { data: stale } = await c.auth.mfa.challenge({ factorId: factor!.id });
    await contract.server.db.query(
      "update auth.mfa_challenges set created_at = now() - interval '301 seconds' where id = $1",
      [stale!.id],
    );
    const expired = await c.auth.mfa.verify({ factorId: factor!.id, challengeId: stale!.id, code: totpCode(secret) });
    expect(expired.error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });

    const { client: other } = await newUser();
    const foreign = await other.auth.mfa.challenge({ factorId: factor!.id });
    expect(foreign.error).toMatchObject({ status: 404, code: "mfa_factor_not_found" });
    const notAnId = await other.auth.mfa.challenge({ factorId: "not-a-uuid" });
    expect(notAnId.error).toMatchObject({ status: 404, code: "validation_failed" });
  });

  it("ends the user's other aal1 sessions, as GoTrue does", async () => {
    const { client: c, email } = await newUser();
    const { session: elsewhere } = await signIn(contract.server, email, STRONG_PASSWORD);
    const { data: factor } = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    const { error } = await c.auth.mfa.challengeAndVerify({
      factorId: factor!.id,
      code: totpCode(factor!.totp.secret),
    });
    expect(error).toBeNull();
    const gone = await raw(contract.server, "/auth/v1/user", {
      headers: { Authorization: `Bearer ${elsewhere.access_token}` },
    });
    expect(gone.status).toBe(403);
    expect(await gone.json()).toMatchObject({ error_code: "session_not_found" });
    expect((await c.auth.getUser()).error).toBeNull();
  });

  it("is limited per address (GoTrue's 15 challenges and verifications a minute)", async () => {
    const limited = await startEmbeddedServer({
      db: contract.server.db,
      port: 0,
      rateLimits: { ...NO_RATE_LIMITS, factorAttemptsPerMinute: 2 },
    });
    try {
      const email = uniqueEmail("mfa-limit");
      await adminClient(contract.server).auth.admin.createUser({
        email,
        password: STRONG_PASSWORD,
        email_confirm: true,
        user_metadata: { name: "Lim Ited", date_of_birth: "1990-01-01" },
      });
      const { client: c } = await signIn(limited, email, STRONG_PASSWORD);
      const { data: factor } = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
      expect((await c.auth.mfa.challenge({ factorId: factor!.id })).error).toBeNull();
      expect((await c.auth.mfa.challenge({ factorId: factor!.id })).error).toBeNull();
      const third = await c.auth.mfa.challenge({ factorId: factor!.id });
      expect(third.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    } finally {
      await limited.close();
    }
  });
});

describe("a user with a verified factor", () => {
  it("signs in at aal1 with aal2 next, and cannot add or remove factors until the code is given", async () => {
    const { email } = await newUser();
    const { factorId } = await signInAtAal2(contract.server, email, STRONG_PASSWORD);
    const { client: c } = await signIn(contract.server, email, STRONG_PASSWORD);
    expect((await c.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal2",
    });
    const another = await c.auth.mfa.enroll({ factorType: "totp", friendlyName: "Second phone" });
    expect(another.error).toMatchObject({ status: 403, code: "insufficient_aal" });
    const remove = await c.auth.mfa.unenroll({ factorId });
    expect(remove.error).toMatchObject({ status: 422, code: "insufficient_aal" });
  });

  it("changes the password or the address only at aal2 (GoTrue's 401 insufficient_aal at aal1)", async () => {
    const { email } = await newUser();
    const { client: atAal2 } = await signInAtAal2(contract.server, email, STRONG_PASSWORD);
    const { client: atAal1 } = await signIn(contract.server, email, STRONG_PASSWORD);
    const refused = await atAal1.auth.updateUser({ password: "Another-pass-42" });
    expect(refused.error).toMatchObject({
      status: 401,
      code: "insufficient_aal",
      message: "AAL2 session is required to update email or password when MFA is enabled.",
    });
    expect((await atAal1.auth.updateUser({ email: uniqueEmail("moved") })).error).toMatchObject({ status: 401 });
    // Metadata is not guarded.
    expect((await atAal1.auth.updateUser({ data: { town: "Leeds" } })).error).toBeNull();
    expect((await atAal2.auth.updateUser({ password: "Another-pass-42" })).error).toBeNull();
  });

  it("at aal2 unenrols: the session goes back to aal1 on its next refresh and the user has no factors", async () => {
    const { email } = await newUser();
    const { client: c, factorId } = await signInAtAal2(contract.server, email, STRONG_PASSWORD);
    const { data, error } = await c.auth.mfa.unenroll({ factorId });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factorId });
    const refreshed = await c.auth.refreshSession();
    const claims = claimsOf(refreshed.data.session!.access_token);
    expect(claims.aal).toBe("aal1");
    expect((claims.amr as { method: string }[]).map((a) => a.method)).toEqual(["password"]);
    expect((await c.auth.getUser()).data.user!.factors).toBeUndefined();
  });
});

describe("the admin API", () => {
  it("lists a user's factors and deletes one, for the secret key only", async () => {
    const { email } = await newUser();
    const { factorId, session } = await signInAtAal2(contract.server, email, STRONG_PASSWORD);
    const userId = session.user.id;

    const denied = await client(contract.server).auth.admin.mfa.listFactors({ userId });
    expect(denied.error?.status).toBe(403);

    const admin = adminClient(contract.server);
    const listed = await admin.auth.admin.mfa.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data!.factors).toEqual([expect.objectContaining({ id: factorId, status: "verified" })]);
    const deleted = await admin.auth.admin.mfa.deleteFactor({ userId, id: factorId });
    expect(deleted.error).toBeNull();
    expect((await admin.auth.admin.mfa.listFactors({ userId })).data!.factors).toEqual([]);
  });
});
