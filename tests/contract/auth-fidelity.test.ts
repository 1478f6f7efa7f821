// GoTrue fidelity: where Supabase's own auth-js tests found the embedded
// server answering otherwise than GoTrue. Each block names the GoTrue source it follows.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminClient,
  birthDateYearsAgo,
  client,
  mailFor,
  raw,
  SECRET_KEY,
  signIn,
  startTestServer,
  STRONG_PASSWORD,
  tokenHashFrom,
  uniqueEmail,
  type TestServer,
} from "./helpers";

const SITE = "http://localhost:3000";
const ACCEPTED = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

// `autoconfirm` answers as the Supabase CLI's config (enable_confirmations = false): sign-ups need no
// confirmation. `confirming` answers as a project that confirms sign-ups (GoTrue's mailer_autoconfirm
// off). Both have secure e-mail change on (double_confirm_changes = true).
let autoconfirm: TestServer;
let confirming: TestServer;
beforeAll(async () => {
  // One after the other: the first may have to build the cached database snapshot.
  autoconfirm = await startTestServer();
  confirming = await startTestServer({ mailConfirmation: true });
});
afterAll(async () => {
  await Promise.all([autoconfirm?.stop(), confirming?.stop()]);
});

const adult = (name: string) => ({ name, date_of_birth: birthDateYearsAgo(30) });
const sha224 = (email: string, otp: string) =>
  createHash("sha224")
    .update(email + otp)
    .digest("hex");

/** A confirmed user made with the admin API, and a client signed in as them. */
async function confirmedUser(server: TestServer, prefix: string) {
  const email = uniqueEmail(prefix);
  const { data, error } = await adminClient(server).auth.admin.createUser({
    email,
    password: STRONG_PASSWORD,
    email_confirm: true,
    user_metadata: adult("Ed Change"),
  });
  if (error) throw error;
  const { client: c } = await signIn(server, email, STRONG_PASSWORD);
  return { email, id: data.user!.id, client: c };
}

/** The e-mail change messages for a change from `current` to `next`: one to each address. */
async function changeMails(server: TestServer, current: string, next: string) {
  const [toCurrent] = await mailFor(server, current);
  const [toNew] = await mailFor(server, next);
  expect(toCurrent).toMatchObject({ kind: "email_change", to_email: current });
  expect(toNew).toMatchObject({ kind: "email_change", to_email: next });
  expect(toCurrent.body).toContain(next);
  for (const mail of [toCurrent, toNew]) expect(tokenHashFrom(mail.body).type).toBe("email_change");
  return {
    current: { ...tokenHashFrom(toCurrent.body), otp: toCurrent.token! },
    next: { ...tokenHashFrom(toNew.body), otp: toNew.token! },
  };
}

async function emailOf(server: TestServer, id: string) {
  const { data } = await adminClient(server).auth.admin.getUserById(id);
  return data.user!.email;
}

describe("secure e-mail change (GoTrue user.go, mail.go sendEmailChange, verify.go emailChangeVerify)", () => {
  it("PUT /user keeps the address until both links are followed; the first answers GoTrue's message", async () => {
    const { email, id, client: c } = await confirmedUser(confirming, "change");
    const next = uniqueEmail("changed");
    const { data, error } = await c.auth.updateUser({ email: next });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: next });
    expect(data.user?.email_change_sent_at).toBeTruthy();
    const links = await changeMails(confirming, email, next);
    // Nothing has changed yet: the old address still signs in.
    await signIn(confirming, email, STRONG_PASSWORD);

    const first = await client(confirming).auth.verifyOtp({
      token_hash: links.current.tokenHash,
      type: "email_change",
    });
    // GoTrue answers {msg, code} (checked below on the wire), which supabase-js reads as no user, no session.
    expect(first).toEqual({ data: { user: null, session: null }, error: null });
    expect(await emailOf(confirming, id)).toBe(email);
    // That link is spent.
    const again = await client(confirming).auth.verifyOtp({
      token_hash: links.current.tokenHash,
      type: "email_change",
    });
    expect(again.error).toMatchObject({
      status: 403,
      code: "otp_expired",
      message: "Email link is invalid or has expired",
    });

    const second = await client(confirming).auth.verifyOtp({ token_hash: links.next.tokenHash, type: "email_change" });
    expect(second.error).toBeNull();
    expect(second.data.session?.user.email).toBe(next);
    expect(second.data.user?.new_email).toBeUndefined();
    expect(second.data.user?.identities?.[0].identity_data).toMatchObject({ email: next, email_verified: true });
    expect(await emailOf(confirming, id)).toBe(next);
    const { rows } = await confirming.db.query("select email from public.profiles where id = $1", [id]);
    expect(rows).toEqual([{ email: next }]);
    await signIn(confirming, next, STRONG_PASSWORD);
    const old = await client(confirming).auth.signInWithPassword({ email, password: STRONG_PASSWORD });
    expect(old.error?.code).toBe("invalid_credentials");
  });

  it("the two six-digit codes work in either order, each with its own address", async () => {
    const { email, id, client: c } = await confirmedUser(confirming, "codes");
    const next = uniqueEmail("codes-new");
    await c.auth.updateUser({ email: next });
    const links = await changeMails(confirming, email, next);
    // A code only works with the address it was sent to.
    const crossed = await client(confirming).auth.verifyOtp({ email, token: links.next.otp, type: "email_change" });
    expect(crossed.error).toMatchObject({
      status: 403,
      code: "otp_expired",
      message: "Token has expired or is invalid",
    });

    const first = await client(confirming).auth.verifyOtp({ email: next, token: links.next.otp, type: "email_change" });
    expect(first).toEqual({ data: { user: null, session: null }, error: null });
    const second = await client(confirming).auth.verifyOtp({ email, token: links.current.otp, type: "email_change" });
    expect(second.error).toBeNull();
    expect(second.data.session?.user.email).toBe(next);
    expect(await emailOf(confirming, id)).toBe(next);
  });

  it("answers the first half as GoTrue: 200 {msg, code} on POST, #message on the link", async () => {
    const { email, client: c } = await confirmedUser(confirming, "shape");
    const next = uniqueEmail("shape-new");
    await c.auth.updateUser({ email: next });
    const links = await changeMails(confirming, email, next);
    const res = await raw(confirming, "/auth/v1/verify", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token_hash: links.current.tokenHash, type: "email_change" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ msg: ACCEPTED, code: "200" });

    const link = await raw(
      confirming,
      `/auth/v1/verify?token=${links.next.tokenHash}&type=email_change&redirect_to=${encodeURIComponent(`${SITE}/account`)}`,
      { key: null, redirect: "manual" },
    );
    expect(link.status).toBe(303);
    const location = new URL(link.headers.get("location")!);
    expect(location.pathname).toBe("/account");
    expect(new URLSearchParams(location.hash.slice(1)).get("access_token")).toBeTruthy();
  });

  it("a GET link for the first half redirects with the message in the fragment", async () => {
    const { email, client: c } = await confirmedUser(confirming, "getfirst");
    const next = uniqueEmail("getfirst-new");
    await c.auth.updateUser({ email: next });
    const links = await changeMails(confirming, email, next);
    const res = await raw(confirming, `/auth/v1/verify?token=${links.current.tokenHash}&type=email_change`, {
      key: null,
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin).toBe(SITE);
    expect(new URLSearchParams(location.hash.slice(1)).get("message")).toBe(ACCEPTED);
  });

  it("without sign-up confirmation (the CLI's config) both mails go out and the first link makes the change", async () => {
    const { email, id, client: c } = await confirmedUser(autoconfirm, "auto");
    const next = uniqueEmail("auto-new");
    const { data } = await c.auth.updateUser({ email: next });
    expect(data.user).toMatchObject({ email, new_email: next });
    const links = await changeMails(autoconfirm, email, next);
    expect(await emailOf(autoconfirm, id)).toBe(email);
    const verified = await client(autoconfirm).auth.verifyOtp({
      token_hash: links.current.tokenHash,
      type: "email_change",
    });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(next);
    expect(await emailOf(autoconfirm, id)).toBe(next);
    // The other link has nothing left to confirm.
    const other = await client(autoconfirm).auth.verifyOtp({ token_hash: links.next.tokenHash, type: "email_change" });
    expect(other.error?.code).toBe("otp_expired");
  });

  it("resend (type email_change, the current address) sends both again and retires the old links", async () => {
    const { email, client: c } = await confirmedUser(confirming, "resend");
    const next = uniqueEmail("resend-new");
    await c.auth.updateUser({ email: next });
    const before = await changeMails(confirming, email, next);
    // GoTrue looks the user up by the current address: the new one finds nobody.
    expect((await client(confirming).auth.resend({ type: "email_change", email: next })).error).toBeNull();
    expect(await mailFor(confirming, next)).toHaveLength(1);
    expect((await client(confirming).auth.resend({ type: "email_change", email })).error).toBeNull();
    expect(await mailFor(confirming, next)).toHaveLength(2);
    const after = await changeMails(confirming, email, next);
    expect(after.current.tokenHash).not.toBe(before.current.tokenHash);
    const stale = await client(confirming).auth.verifyOtp({ token_hash: before.next.tokenHash, type: "email_change" });
    expect(stale.error?.code).toBe("otp_expired");
    expect(
      (await client(confirming).auth.verifyOtp({ token_hash: after.next.tokenHash, type: "email_change" })).error,
    ).toBeNull();
  });

  it("refuses an invalid or taken address before sending anything", async () => {
    const { client: c } = await confirmedUser(confirming, "refuse");
    const invalid = await c.auth.updateUser({ email: "not an address" });
    expect(invalid.error).toMatchObject({
      status: 400,
      code: "validation_failed",
      message: "Unable to validate email address: invalid format",
    });
    const taken = await c.auth.updateUser({ email: "player@labcash.test" });
    expect(taken.error).toMatchObject({ status: 422, code: "email_exists" });
    expect(await mailFor(confirming, "player@labcash.test")).toEqual([]);
  });
});

describe("POST /admin/generate_link (GoTrue mail.go adminGenerateLink)", () => {
  it("signup: makes the user and answers the link, code and hash with the user's fields, sending nothing", async () => {
    const email = uniqueEmail("gen-signup");
    const res = await raw(autoconfirm, "/auth/v1/admin/generate_link", {
      key: SECRET_KEY,
      method: "POST",
      headers: { authorization: `Bearer ${SECRET_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "signup", email, password: STRONG_PASSWORD, data: adult("Gen Signup") }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      email,
      aud: "authenticated",
      user_metadata: adult("Gen Signup"),
      verification_type: "signup",
      redirect_to: SITE,
      email_otp: expect.stringMatching(/^\d{8}$/),
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.email_confirmed_at).toBeUndefined();
    expect(body.hashed_token).toBe(sha224(email, body.email_otp));
    expect(body.action_link).toBe(
      `${autoconfirm.url}/auth/v1/verify?token=${body.hashed_token}&type=signup&redirect_to=${SITE}`,
    );
    expect(await mailFor(autoconfirm, email)).toEqual([]);

    const { data, error } = await client(autoconfirm).auth.verifyOtp({ token_hash: body.hashed_token, type: "signup" });
    expect(error).toBeNull();
    expect(data.session?.user.email_confirmed_at).toBeTruthy();
  });

  it("supabase-js splits the answer into properties and user; magiclink and recovery sign an existing user in", async () => {
    const admin = adminClient(autoconfirm).auth.admin;
    const { email, id } = await confirmedUser(autoconfirm, "gen-magic");
    const magic = await admin.generateLink({ type: "magiclink", email, options: { redirectTo: `${SITE}/account` } });
    expect(magic.error).toBeNull();
    expect(magic.data.user?.id).toBe(id);
    expect(magic.data.properties).toMatchObject({ verification_type: "magiclink", redirect_to: `${SITE}/account` });
    expect(magic.data.properties?.action_link).toContain("type=magiclink");
    const link = await raw(autoconfirm, magic.data.properties!.action_link.replace(autoconfirm.url, ""), {
      key: null,
      redirect: "manual",
    });
    expect(link.status).toBe(303);
    const location = new URL(link.headers.get("location")!);
    expect(location.pathname).toBe("/account");
    expect(new URLSearchParams(location.hash.slice(1)).get("type")).toBe("magiclink");

    const recovery = await admin.generateLink({ type: "recovery", email });
    expect(recovery.data.properties?.verification_type).toBe("recovery");
    const otp = recovery.data.properties!.email_otp;
    const verified = await client(autoconfirm).auth.verifyOtp({ email, token: otp, type: "recovery" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.id).toBe(id);
    expect(await mailFor(autoconfirm, email)).toEqual([]);
  });

  it("magiclink for a new address becomes a signup (user made with a random password)", async () => {
    const email = uniqueEmail("gen-new-magic");
    const { data, error } = await adminClient(autoconfirm).auth.admin.generateLink({
      type: "magiclink",
      email,
      options: { data: adult("New Magic") },
    });
    expect(error).toBeNull();
    expect(data.properties?.verification_type).toBe("signup");
    expect(data.properties?.action_link).toContain("type=signup");
    expect(data.user).toMatchObject({ email, user_metadata: adult("New Magic") });
  });

  it("invite: an invited user whose link (type invite) confirms and signs in", async () => {
    const email = uniqueEmail("gen-invite");
    const { data } = await adminClient(autoconfirm).auth.admin.generateLink({
      type: "invite",
      email,
      options: { data: adult("Gen Invite") },
    });
    expect(data.properties?.verification_type).toBe("invite");
    expect(data.user?.invited_at).toBeTruthy();
    expect(data.user?.user_metadata).toEqual(adult("Gen Invite"));
    const { data: verified, error } = await client(autoconfirm).auth.verifyOtp({
      token_hash: data.properties!.hashed_token,
      type: "invite",
    });
    expect(error).toBeNull();
    expect(verified.session?.user.email).toBe(email);
  });

  it("email_change_current and email_change_new: each writes its own token; the new address's link changes it", async () => {
    const admin = adminClient(autoconfirm).auth.admin;
    const { email, id } = await confirmedUser(autoconfirm, "gen-change");
    const next = uniqueEmail("gen-change-new");
    const current = await admin.generateLink({ type: "email_change_current", email, newEmail: next });
    expect(current.error).toBeNull();
    expect(current.data.user?.new_email).toBe(next);
    expect(current.data.properties?.hashed_token).toBe(sha224(email, current.data.properties!.email_otp));
    expect(current.data.properties?.action_link).toContain(
      `token=${current.data.properties!.hashed_token}&type=email_change`,
    );

    const fresh = await admin.generateLink({ type: "email_change_new", email, newEmail: next });
    const otp = fresh.data.properties!.email_otp;
    // As GoTrue: hashed_token is the current address's hash, while the link carries the new one's.
    expect(fresh.data.properties?.hashed_token).toBe(sha224(email, otp));
    expect(fresh.data.properties?.action_link).toContain(`token=${sha224(next, otp)}&type=email_change`);
    const verified = await client(autoconfirm).auth.verifyOtp({ email: next, token: otp, type: "email_change" });
    expect(verified.error).toBeNull();
    expect(await emailOf(autoconfirm, id)).toBe(next);
  });

  it("refuses as GoTrue: unknown type, missing or bad address, unknown user, taken address, no password, no secret key", async () => {
    const admin = adminClient(autoconfirm).auth.admin;
    const post = (body: Record<string, unknown>) =>
      raw(autoconfirm, "/auth/v1/admin/generate_link", {
        key: SECRET_KEY,
        method: "POST",
        headers: {
          authorization: `Bearer ${SECRET_KEY}`,
          "content-type": "application/json",
          "x-supabase-api-version": "2024-01-01",
        },
        body: JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
    expect(await post({ type: "sideways", email: "player@labcash.test" })).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "Invalid email action link type requested: sideways" },
    });
    expect(await post({ type: "recovery" })).toEqual({
      status: 400,
      body: { code: "validation_failed", message: "An email address is required" },
    });
    expect(await post({ type: "recovery", email: "nobody@" })).toMatchObject({
      status: 400,
      body: { message: "Unable to validate email address: invalid format" },
    });
    const notFound = { status: 404, code: "user_not_found", message: "User with this email not found" };
    expect((await admin.generateLink({ type: "recovery", email: uniqueEmail("ghost") })).error).toMatchObject(notFound);
    for (const type of ["email_change_current", "email_change_new"] as const) {
      const { error } = await admin.generateLink({ type, email: uniqueEmail("ghost"), newEmail: uniqueEmail() });
      expect(error, type).toMatchObject(notFound);
    }
    const taken = await admin.generateLink({ type: "invite", email: "player@labcash.test" });
    expect(taken.error).toMatchObject({ status: 422, code: "email_exists" });
    const signupTaken = await admin.generateLink({
      type: "signup",
      email: "player@labcash.test",
      password: STRONG_PASSWORD,
    });
    expect(signupTaken.error).toMatchObject({ status: 422, code: "email_exists" });
    const changeTaken = await admin.generateLink({
      type: "email_change_new",
      email: "player@labcash.test",
      newEmail: "admin@labcash.test",
    });
    expect(changeTaken.error).toMatchObject({ status: 422, code: "email_exists" });
    expect(await post({ type: "signup", email: uniqueEmail("nopass") })).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "Signup requires a valid password" },
    });
    const anon = await client(autoconfirm).auth.admin.generateLink({ type: "magiclink", email: "player@labcash.test" });
    expect(anon.error).toMatchObject({ status: 403, code: "not_admin" });
  });
});

describe("POST /invite (GoTrue invite.go; auth.admin.inviteUserByEmail)", () => {
  it("makes an invited user with `data` as user_metadata and mails an invite whose link confirms and signs in", async () => {
    const email = uniqueEmail("invite");
    const { data, error } = await adminClient(confirming).auth.admin.inviteUserByEmail(email, {
      data: adult("Ivy Invite"),
      redirectTo: `${SITE}/account/password`,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: adult("Ivy Invite") });
    expect(data.user?.invited_at).toBeTruthy();
    expect(data.user?.confirmation_sent_at).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeUndefined();
    expect(data.user?.identities?.[0].identity_data).toEqual({
      sub: data.user!.id,
      email,
      email_verified: false,
      phone_verified: false,
    });
    const [mail] = await mailFor(confirming, email);
    expect(mail).toMatchObject({ kind: "invite", to_email: email, token: expect.stringMatching(/^\d{8}$/) });
    const link = tokenHashFrom(mail.body);
    expect(link.type).toBe("invite");
    expect(mail.body).toContain(`next=${encodeURIComponent(`${SITE}/account/password`)}`);
    const { rows } = await confirming.db.query("select name from public.profiles where id = $1", [data.user!.id]);
    expect(rows).toEqual([{ name: "Ivy Invite" }]);

    const verified = await client(confirming).auth.verifyOtp({ token_hash: link.tokenHash, type: "invite" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email_confirmed_at).toBeTruthy();
    expect(verified.data.session?.user.user_metadata).toEqual({ ...adult("Ivy Invite"), email_verified: true });
    expect(verified.data.session?.user.identities?.[0].identity_data).toMatchObject({ email_verified: true });
    // The invitation works once.
    const again = await client(confirming).auth.verifyOtp({ token_hash: link.tokenHash, type: "invite" });
    expect(again.error?.code).toBe("otp_expired");
  });

  it("the invitation's code works with the address too, and an unconfirmed user may be invited again", async () => {
    const email = uniqueEmail("invite-code");
    const admin = adminClient(confirming).auth.admin;
    await admin.inviteUserByEmail(email, { data: adult("Cody Code") });
    const again = await admin.inviteUserByEmail(email);
    expect(again.error).toBeNull();
    const [latest, first] = await mailFor(confirming, email);
    const stale = await client(confirming).auth.verifyOtp({ email, token: first.token!, type: "invite" });
    expect(stale.error?.code).toBe("otp_expired");
    const verified = await client(confirming).auth.verifyOtp({ email, token: latest.token!, type: "invite" });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
  });

  it("refuses a confirmed address (422 email_exists), a bad address, and callers without the secret key", async () => {
    const admin = adminClient(confirming).auth.admin;
    const taken = await admin.inviteUserByEmail("player@labcash.test");
    expect(taken.error).toMatchObject({
      status: 422,
      code: "email_exists",
      message: "A user with this email address has already been registered",
    });
    expect(await mailFor(confirming, "player@labcash.test")).toEqual([]);
    const bad = await admin.inviteUserByEmail("two@@labcash.test");
    expect(bad.error).toMatchObject({ status: 400, code: "validation_failed" });
    const anon = await client(confirming).auth.admin.inviteUserByEmail(uniqueEmail());
    expect(anon.error).toMatchObject({ status: 403, code: "not_admin" });
  });
});

describe("e-mail addresses (GoTrue mail.go validateEmail: checkmail's format, 255 bytes)", () => {
  const invalid = [
    "not-an-address",
    " padded@labcash.test",
    "padded@labcash.test ",
    "two@@labcash.test",
    "under_score@lab_cash.test",
    "dot@labcash.test.",
    "hyphen@-labcash.test",
    "ümlaut@labcash.test",
    "new\nline@labcash.test",
  ];
  const tooLong = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.test`;
  const format = {
    status: 400,
    code: "validation_failed",
    message: "Unable to validate email address: invalid format",
  };

  it("every endpoint that takes an address refuses the same ones with the same answer", async () => {
    expect(Buffer.byteLength(tooLong)).toBeGreaterThan(255);
    const c = client(autoconfirm).auth;
    const admin = adminClient(autoconfirm).auth.admin;
    const { id, client: signedIn } = await confirmedUser(autoconfirm, "validate");
    const attempts: Record<string, (email: string) => Promise<{ error: unknown }>> = {
      signUp: (email) => c.signUp({ email, password: STRONG_PASSWORD }),
      recover: (email) => c.resetPasswordForEmail(email),
      resend: (email) => c.resend({ type: "signup", email }),
      updateUser: (email) => signedIn.auth.updateUser({ email }),
      createUser: (email) => admin.createUser({ email, password: STRONG_PASSWORD }),
      updateUserById: (email) => admin.updateUserById(id, { email }),
      invite: (email) => admin.inviteUserByEmail(email),
      generateLink: (email) => admin.generateLink({ type: "invite", email }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      for (const email of invalid)
        expect((await attempt(email)).error, `${name} ${JSON.stringify(email)}`).toMatchObject(format);
      expect((await attempt(tooLong)).error, `${name} too long`).toMatchObject({
        status: 400,
        code: "validation_failed",
        message: "An email address is too long",
      });
    }
    const missing = await admin.inviteUserByEmail("");
    expect(missing.error).toMatchObject({ status: 400, message: "An email address is required" });
    const noRecoveryAddress = await c.resetPasswordForEmail("");
    expect(noRecoveryAddress.error).toMatchObject({ status: 400, message: "Password recovery requires an email" });
    const code = await c.verifyOtp({ email: "not-an-address", token: "123456", type: "email" });
    expect(code.error).toMatchObject({ status: 422, code: "validation_failed", message: "Invalid email format" });
  });

  it("takes what checkmail takes (no dot needed after the @, any case) and stores it in lower case", async () => {
    for (const email of ["someone@localhost", "o'brien+tag@sub.labcash.test", "x@a-b.c"]) {
      expect((await client(autoconfirm).auth.resetPasswordForEmail(email)).error, email).toBeNull();
    }
    const mixed = `Mixed.Case-${Date.now()}@LabCash.Test`;
    const { data, error } = await client(autoconfirm).auth.signUp({
      email: mixed,
      password: STRONG_PASSWORD,
      options: { data: adult("Mixed Case") },
    });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(mixed.toLowerCase());
  });
});

describe("admin user paging (GoTrue shared/pagination.go)", () => {
  const list = (query: string) =>
    raw(autoconfirm, `/auth/v1/admin/users${query}`, {
      key: SECRET_KEY,
      headers: { authorization: `Bearer ${SECRET_KEY}`, "x-supabase-api-version": "2024-01-01" },
    });

  it("refuses a bad page or per_page with 400 and Go's reason", async () => {
    const cases: [string, string][] = [
      ["?page=-1", 'strconv.ParseUint: parsing "-1": invalid syntax'],
      ["?page=abc", 'strconv.ParseUint: parsing "abc": invalid syntax'],
      ["?page=1.5", 'strconv.ParseUint: parsing "1.5": invalid syntax'],
      ["?page=0", "page must be greater than 0"],
      ["?page=2147483648", "page exceeds maximum allowed value"],
      ["?page=99999999999999999999", 'strconv.ParseUint: parsing "99999999999999999999": value out of range'],
      ["?per_page=0", "per_page must be greater than 0"],
      ["?per_page=1001", "per_page must not exceed 1000"],
      ["?per_page=-5", 'strconv.ParseUint: parsing "-5": invalid syntax'],
    ];
    for (const [query, reason] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toEqual({
        code: "validation_failed",
        message: `Bad Pagination Parameters: ${reason}`,
      });
    }
    const { error } = await adminClient(autoconfirm).auth.admin.listUsers({ page: -1 });
    expect(error).toMatchObject({ status: 400, code: "validation_failed" });
  });

  it("sends X-Total-Count and Link (next while pages remain, always last) built from the request", async () => {
    const all = await list("?per_page=1000");
    expect(all.status).toBe(200);
    const total = Number(all.headers.get("x-total-count"));
    expect((await all.json()).users).toHaveLength(total);
    expect(all.headers.get("link")).toBe('</admin/users?page=1&per_page=1000>; rel="last"');

    const first = await list("?per_page=2&page=1");
    const last = Math.ceil(total / 2);
    expect(first.headers.get("x-total-count")).toBe(String(total));
    expect(first.headers.get("link")).toBe(
      `</admin/users?page=2&per_page=2>; rel="next", </admin/users?page=${last}&per_page=2>; rel="last"`,
    );
    const beyond = await list(`?page=${last + 5}&per_page=2`);
    expect((await beyond.json()).users).toEqual([]);
    expect(beyond.headers.get("link")).toBe(`</admin/users?page=${last}&per_page=2>; rel="last"`);
    const defaults = await list("");
    expect(defaults.headers.get("link")).toBe(`</admin/users?page=${Math.max(Math.ceil(total / 50), 1)}>; rel="last"`);
  });
});

describe("user_metadata as GoTrue stores it (admin.go adminUserCreate, signup.go, models/user.go Confirm)", () => {
  it("admin createUser keeps user_metadata as sent; email_confirm adds only email_verified", async () => {
    const admin = adminClient(autoconfirm).auth.admin;
    const plain = await admin.createUser({ email: uniqueEmail("meta-plain"), user_metadata: adult("Plain Meta") });
    expect(plain.error).toBeNull();
    expect(plain.data.user?.user_metadata).toEqual(adult("Plain Meta"));
    expect(plain.data.user?.identities?.[0].identity_data).toEqual({
      sub: plain.data.user!.id,
      email: plain.data.user!.email,
      email_verified: false,
      phone_verified: false,
    });

    const confirmed = await admin.createUser({
      email: uniqueEmail("meta-confirmed"),
      email_confirm: true,
      user_metadata: adult("Confirmed Meta"),
    });
    expect(confirmed.data.user?.user_metadata).toEqual({ ...adult("Confirmed Meta"), email_verified: true });
    const { rows } = await autoconfirm.db.query<{ raw_user_meta_data: unknown; name: string }>(
      "select u.raw_user_meta_data, p.name from auth.users u join public.profiles p using (id) where u.id = $1",
      [confirmed.data.user!.id],
    );
    expect(rows).toEqual([
      { raw_user_meta_data: { ...adult("Confirmed Meta"), email_verified: true }, name: "Confirmed Meta" },
    ]);
  });

  it("sign-up stores the identity's claims with the sign-up data (the claims win), as GoTrue's Signup does", async () => {
    const email = uniqueEmail("meta-signup");
    const { data, error } = await client(autoconfirm).auth.signUp({
      email,
      password: STRONG_PASSWORD,
      options: { data: { ...adult("Sign Meta"), email: "spoof@labcash.test" } },
    });
    expect(error).toBeNull();
    const id = data.user!.id;
    const claims = { sub: id, email, phone_verified: false };
    expect(data.user?.user_metadata).toEqual({ ...adult("Sign Meta"), ...claims, email_verified: true });
    expect(data.user?.identities?.[0].identity_data).toEqual({
      ...adult("Sign Meta"),
      ...claims,
      email_verified: false,
    });
    const { rows } = await autoconfirm.db.query("select name from public.profiles where id = $1", [id]);
    expect(rows).toEqual([{ name: "Sign Meta" }]);
  });

  it("with confirmation on, email_verified turns true in metadata and identity when the link is followed", async () => {
    const email = uniqueEmail("meta-confirm");
    const { data } = await client(confirming).auth.signUp({
      email,
      password: STRONG_PASSWORD,
      options: { data: adult("Late Confirm") },
    });
    expect(data.user?.user_metadata).toMatchObject({ email_verified: false, sub: data.user!.id });
    const [mail] = await mailFor(confirming, email);
    const verified = await client(confirming).auth.verifyOtp({
      token_hash: tokenHashFrom(mail.body).tokenHash,
      type: "email",
    });
    expect(verified.data.user?.user_metadata).toMatchObject({ ...adult("Late Confirm"), email_verified: true });
    expect(verified.data.user?.identities?.[0].identity_data).toMatchObject({ email_verified: true });
  });
});
