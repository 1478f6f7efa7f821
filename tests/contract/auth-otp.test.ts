// GoTrue's POST /otp (e-mail sign-in link and code) and GET /reauthenticate (a nonce by e-mail), as
// auth-js calls them: signInWithOtp, verifyOtp and reauthenticate.
import { createHash } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitorFetch } from "@/lib/supabase/visitor-fetch";
import { GOTRUE_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import {
  adminClient,
  birthDateYearsAgo,
  client,
  DEMO_PASSWORD,
  mailFor,
  PUBLISHABLE_KEY,
  raw,
  SECRET_KEY,
  signIn,
  signInAtAal2,
  startTestServer,
  tokenHashFrom,
  uniqueEmail,
  type TestServer,
} from "./helpers";
import { contractServer } from "./support/server";

const contract = contractServer();

describe("POST /otp", () => {
  it("mails an existing player a sign-in link and a code; either signs them in", async () => {
    const email = "player@labcash.test";
    const { data, error } = await client(contract.server).auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false },
    });
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const [mail] = await mailFor(contract.server, email);
    expect(mail).toMatchObject({ kind: "magiclink", subject: "Your LabCash sign-in link" });
    expect(mail.token).toMatch(/^\d{8}$/);
    const byCode = await client(contract.server).auth.verifyOtp({ email, token: mail.token!, type: "email" });
    expect(byCode.error).toBeNull();
    expect(byCode.data.session?.user.email).toBe(email);

    await client(contract.server).auth.signInWithOtp({ email });
    const [second] = await mailFor(contract.server, email);
    const { tokenHash, type } = tokenHashFrom(second.body);
    expect(type).toBe("magiclink");
    const byLink = await client(contract.server).auth.verifyOtp({ token_hash: tokenHash, type: "magiclink" });
    expect(byLink.error).toBeNull();
  });

  it("refuses an unknown address when sign-ups are not wanted, and signs a new one up when they are", async () => {
    const refused = await client(contract.server).auth.signInWithOtp({
      email: uniqueEmail("new"),
      options: { shouldCreateUser: false },
    });
    expect(refused.error).toMatchObject({ status: 422, code: "otp_disabled", message: "Signups not allowed for otp" });

    const email = uniqueEmail("new");
    const created = await client(contract.server).auth.signInWithOtp({
      email,
      options: { data: { name: "New", date_of_birth: birthDateYearsAgo(25) } },
    });
    expect(created.error).toBeNull();
    expect((await mailFor(contract.server, email)).map((m) => m.kind)).toEqual(["magiclink"]);
    // LabCash's rule holds on this path too: no date of birth, no account.
    const noBirthDate = await client(contract.server).auth.signInWithOtp({ email: uniqueEmail("new") });
    expect(noBirthDate.error).toMatchObject({ status: 422 });
  });

  it("a link signs in once; a spent link, a wrong code and a code past its ten minutes are refused as GoTrue refuses them", async () => {
    const email = "player@labcash.test";
    await client(contract.server).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const [mail] = await mailFor(contract.server, email);
    const { tokenHash } = tokenHashFrom(mail.body);
    expect(
      (await client(contract.server).auth.verifyOtp({ token_hash: tokenHash, type: "magiclink" })).error,
    ).toBeNull();
    const again = await client(contract.server).auth.verifyOtp({ token_hash: tokenHash, type: "magiclink" });
    expect(again.error).toMatchObject({
      status: 403,
      code: "otp_expired",
      message: "Email link is invalid or has expired",
    });
    // The code went with the link: spending one spends both.
    const spentCode = await client(contract.server).auth.verifyOtp({ email, token: mail.token!, type: "email" });
    expect(spentCode.error).toMatchObject({ status: 403, code: "otp_expired" });

    await client(contract.server).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const [fresh] = await mailFor(contract.server, email);
    const wrong = String((Number(fresh.token) + 1) % 100_000_000).padStart(8, "0");
    const refused = await client(contract.server).auth.verifyOtp({ email, token: wrong, type: "email" });
    expect(refused.error).toMatchObject({
      status: 403,
      code: "otp_expired",
      message: "Token has expired or is invalid",
    });
    // supabase/config.toml's otp_expiry, which the app gives the embedded backend: ten minutes.
    await contract.server.db.query(
      "update auth.users set recovery_sent_at = now() - interval '11 minutes' where email = $1",
      [email],
    );
    const late = await client(contract.server).auth.verifyOtp({ email, token: fresh.token!, type: "email" });
    expect(late.error).toMatchObject({ status: 403, code: "otp_expired", message: "Token has expired or is invalid" });
  });

  it("with PKCE (as the site's server client asks), the link's GET /verify redirects with a code to exchange", async () => {
    const email = "player@labcash.test";
    const pkce = client(contract.server, PUBLISHABLE_KEY, "pkce");
    const callback = "http://localhost:3000/auth/callback";
    await pkce.auth.signInWithOtp({ email, options: { shouldCreateUser: false, emailRedirectTo: callback } });
    const [mail] = await mailFor(contract.server, email);
    const { tokenHash } = tokenHashFrom(mail.body);
    const res = await raw(
      contract.server,
      `/auth/v1/verify?token=${tokenHash}&type=magiclink&redirect_to=${encodeURIComponent(callback)}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(callback);
    const exchanged = await pkce.auth.exchangeCodeForSession(location.searchParams.get("code")!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
  });

  it("keeps the app's gates: a player awaiting approval is still refused, and two-step still owes its code", async () => {
    const pending = "pending@labcash.test";
    await client(contract.server).auth.signInWithOtp({ email: pending, options: { shouldCreateUser: false } });
    const [mail] = await mailFor(contract.server, pending);
    const c = client(contract.server);
    expect((await c.auth.verifyOtp({ email: pending, token: mail.token!, type: "email" })).error).toBeNull();
    const { data: list } = await c.rpc("list_competitions", { p_status: "live" });
    const entered = await c.rpc("enter_competition", {
      p_competition_id: (list as Array<{ id: string }>)[0].id,
      p_quantity: 1,
      p_answer: "x",
    });
    expect(entered.error).toMatchObject({ hint: "approval_pending" });

    const email = uniqueEmail("otp-two-step");
    await adminClient(contract.server).auth.admin.createUser({
      email,
      password: DEMO_PASSWORD,
      email_confirm: true,
      user_metadata: { name: "Two Step", date_of_birth: birthDateYearsAgo(30) },
    });
    await signInAtAal2(contract.server, email);
    await client(contract.server).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const [code] = await mailFor(contract.server, email);
    const byCode = client(contract.server);
    const { data } = await byCode.auth.verifyOtp({ email, token: code.token!, type: "email" });
    expect(data.session).not.toBeNull();
    const level = await byCode.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
  });

  it("refuses phone sign-in, as a project without SMS does", async () => {
    const phone = await client(contract.server).auth.signInWithOtp({ phone: "+447700900123" });
    expect(phone.error).toMatchObject({ status: 400, code: "phone_provider_disabled" });
  });
});

describe("POST /otp within GoTrue's limits", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ rateLimits: GOTRUE_RATE_LIMITS });
  });
  afterAll(() => limited?.stop());

  let nextVisitor = 10;
  /** A supabase-js client for a new visitor, whose address the site's server forwards (visitor-fetch.ts). */
  const newVisitor = () =>
    createClient(limited.url, PUBLISHABLE_KEY, {
      global: {
        fetch: visitorFetch(`203.0.113.${nextVisitor++}`, { publishableKey: PUBLISHABLE_KEY, secretKey: SECRET_KEY }),
      },
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
  const ask = (visitor: ReturnType<typeof newVisitor>, email: string) =>
    visitor.auth.signInWithOtp({ email, options: { shouldCreateUser: false } });

  it("one link per address a minute, and the second ask is refused alike for a known and an unknown address", async () => {
    const visitor = newVisitor();
    const unknown = uniqueEmail("nobody");
    expect((await ask(visitor, "player@labcash.test")).error).toBeNull();
    // GoTrue's own answer for an unknown address with create_user false (the site shows its one message).
    expect((await ask(visitor, unknown)).error).toMatchObject({ status: 422, code: "otp_disabled" });
    for (const email of ["player@labcash.test", unknown]) {
      const { error } = await ask(newVisitor(), email);
      expect(error).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    }
    expect(await mailFor(limited, "player@labcash.test")).toHaveLength(1);
    expect(await mailFor(limited, unknown)).toHaveLength(0);
  });

  it("one visitor's asks spend only their own allowance: others still get their link", async () => {
    const attacker = newVisitor();
    const answers: (string | undefined)[] = [];
    for (let i = 0; i < 31; i++) answers.push((await ask(attacker, uniqueEmail("probe"))).error?.code);
    // Five e-mails a visitor an hour (ours), then GoTrue's thirty sign-in requests an hour.
    expect(answers.slice(0, 5)).toEqual(Array(5).fill("otp_disabled"));
    expect(new Set(answers.slice(5, 30))).toEqual(new Set(["over_email_send_rate_limit"]));
    expect(answers[30]).toBe("over_request_rate_limit");
    expect((await ask(newVisitor(), "pending@labcash.test")).error).toBeNull();
  });
});

describe("GET /reauthenticate", () => {
  it("mails the signed-in user a nonce, kept as GoTrue keeps it (sha224 of address and code)", async () => {
    const { client: c } = await signIn(contract.server, "player@labcash.test", DEMO_PASSWORD);
    const { data, error } = await c.auth.reauthenticate();
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const [mail] = await mailFor(contract.server, "player@labcash.test");
    expect(mail.kind).toBe("reauthentication");
    expect(mail.body).toContain(mail.token!);
    const { rows } = await contract.server.db.query<{ reauthentication_token: string }>(
      "select reauthentication_token from auth.users where email = 'player@labcash.test'",
    );
    const expected = createHash("sha224").update(`player@labcash.test${mail.token}`).digest("hex");
    expect(rows[0].reauthentication_token).toBe(expected);
  });

  it("signed out, answers as GoTrue does that there is no address to send to", async () => {
    // auth-js refuses this itself now; older clients send the API key as the bearer, as here.
    const res = await raw(contract.server, "/auth/v1/reauthenticate", {
      headers: { authorization: `Bearer ${PUBLISHABLE_KEY}`, "x-supabase-api-version": "2024-01-01" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "validation_failed",
      message: "Reauthentication requires the user to have an email or a phone number",
    });
  });
});
