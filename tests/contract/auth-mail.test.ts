import { describe, expect, it } from "vitest";
import {
  birthDateYearsAgo,
  client,
  mailFor,
  raw,
  SECRET_KEY,
  signIn,
  STRONG_PASSWORD,
  tokenHashFrom,
  uniqueEmail,
} from "./helpers";
import { contractServer } from "./support/server";

// This server requires e-mail confirmation (EMBEDDED_MAIL_CONFIRMATION=1).
const contract = contractServer({ mailConfirmation: true });

describe("e-mail confirmation", () => {
  it("sign-up returns no session and queues a confirmation mail; the code confirms and signs in", async () => {
    const email = uniqueEmail("confirm");
    const { data, error } = await client(contract.server).auth.signUp({
      email,
      password: STRONG_PASSWORD,
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toBeUndefined();

    const early = await client(contract.server).auth.signInWithPassword({ email, password: STRONG_PASSWORD });
    expect(early.error?.code).toBe("email_not_confirmed");

    const mail = await mailFor(contract.server, email);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to_email: email, kind: "signup", token: expect.stringMatching(/^\d{8}$/) });
    const { type } = tokenHashFrom(mail[0].body);
    expect(type).toBe("email");
    // The link names the address and carries the code, so the site counts a try at it against the address.
    const link = new URLSearchParams({ email, code: mail[0].token!, type: "email" });
    expect(mail[0].body).toContain(`http://localhost:3000/auth/confirm?${link}`);
    expect(mail[0].body).not.toContain("token_hash");

    const verified = await client(contract.server).auth.verifyOtp({ email, token: mail[0].token!, type: "email" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toBeTruthy();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    await signIn(contract.server, email, STRONG_PASSWORD);

    // A token works once.
    const again = await client(contract.server).auth.verifyOtp({ email, token: mail[0].token!, type: "email" });
    expect(again.error?.code).toBe("otp_expired");
    expect(again.error?.status).toBe(403);
  });

  it("the link's token_hash (sha224 of its address and code) confirms too, and resend sends a new link", async () => {
    const email = uniqueEmail("link");
    await client(contract.server).auth.signUp({
      email,
      password: STRONG_PASSWORD,
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    expect((await client(contract.server).auth.resend({ type: "signup", email })).error).toBeNull();
    const mail = await mailFor(contract.server, email);
    expect(mail).toHaveLength(2);
    const stale = tokenHashFrom(mail[1].body);
    const fresh = tokenHashFrom(mail[0].body);
    expect(
      (await client(contract.server).auth.verifyOtp({ token_hash: stale.tokenHash, type: "email" })).error?.code,
    ).toBe("otp_expired");
    const { data, error } = await client(contract.server).auth.verifyOtp({
      token_hash: fresh.tokenHash,
      type: "email",
    });
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
  });

  it("does not reveal that a confirmed address is taken", async () => {
    const { data, error } = await client(contract.server).auth.signUp({
      email: "player@labcash.test",
      password: STRONG_PASSWORD,
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.identities).toEqual([]);
  });

  it("PKCE: the GoTrue-style verify link redirects with a code that exchanges for a session", async () => {
    const email = uniqueEmail("pkce");
    const pkceClient = client(contract.server, undefined, "pkce");
    await pkceClient.auth.signUp({
      email,
      password: STRONG_PASSWORD,
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    const [mail] = await mailFor(contract.server, email);
    const { tokenHash } = tokenHashFrom(mail.body);
    const res = await raw(
      contract.server,
      `/auth/v1/verify?token=${tokenHash}&type=signup&redirect_to=${encodeURIComponent("http://localhost:3000/auth/callback")}`,
      { key: null, redirect: "manual" },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(location.pathname).toBe("/auth/callback");
    const code = location.searchParams.get("code")!;
    const { data, error } = await pkceClient.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session?.user.email).toBe(email);
    // The code is single-use.
    expect((await pkceClient.auth.exchangeCodeForSession(code)).error).not.toBeNull();
  });

  it("the mail outbox needs the secret key", async () => {
    const res = await raw(contract.server, "/_embedded/mail?email=player@labcash.test");
    expect(res.status).toBe(403);
    expect((await raw(contract.server, "/_embedded/mail", { key: null })).status).toBe(401);
  });

  it("the app's own outbox (public.mail_outbox) needs the secret key too, and reads back with it", async () => {
    expect((await raw(contract.server, "/_embedded/app-mail?email=player@labcash.test")).status).toBe(403);
    expect((await raw(contract.server, "/_embedded/app-mail", { key: null })).status).toBe(401);
    const read = await raw(contract.server, "/_embedded/app-mail?limit=5", { key: SECRET_KEY });
    expect(read.status).toBe(200);
    expect(Array.isArray(await read.json())).toBe(true);
  });
});

describe("password recovery", () => {
  it("recover → mail → verify (recovery) → session → new password", async () => {
    const email = "pending@labcash.test";
    const { error } = await client(contract.server).auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    const [mail] = await mailFor(contract.server, email);
    expect(mail.kind).toBe("recovery");
    const { tokenHash, type } = tokenHashFrom(mail.body);
    expect(type).toBe("recovery");

    const recovering = client(contract.server);
    const verified = await recovering.auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
    expect(verified.error).toBeNull();
    expect(verified.data.session).toBeTruthy();
    const claims = (await recovering.auth.getClaims()).data!.claims;
    // GoTrue's POST /verify records every link or code as "otp" (only a PKCE link records its type).
    expect(claims.amr?.[0]).toMatchObject({ method: "otp" });
    // GoTrue keeps the session's amr on refresh (auth.mfa_amr_claims): the same method and time.
    const refreshed = await recovering.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const afterRefresh = (await recovering.auth.getClaims()).data!.claims;
    expect(afterRefresh.amr).toEqual(claims.amr);

    const updated = await recovering.auth.updateUser({ password: "Recovered-pass-9" });
    expect(updated.error).toBeNull();
    await signIn(contract.server, email, "Recovered-pass-9");
  });

  it("answers the same for an unknown address and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    expect((await client(contract.server).auth.resetPasswordForEmail(email)).error).toBeNull();
    expect(await mailFor(contract.server, email)).toEqual([]);
  });
});
