// GoTrue's [auth.captcha], as hosted projects turn it on (Cloudflare Turnstile): sign-ups, e-mail sign-ins, resets,
// resends and password sign-ins from a caller with the publishable key carry a token supabase-js sends as
// `captchaToken`, which the auth server checks with the provider. The provider here is Turnstile's documented test
// secrets, answered offline by the embedded backend as Cloudflare answers them. The site's server, with the secret
// key, is exempt, as GoTrue exempts admin callers: it asks for a CAPTCHA itself, past its own thresholds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TURNSTILE_TEST_SECRETS, TURNSTILE_TEST_TOKEN } from "@labcash/embedded-supabase/captcha";
import { adminClient, client, DEMO_PASSWORD, mailFor, startTestServer, type TestServer } from "./helpers";

const email = "player@labcash.test";

describe("with a Turnstile secret that always passes", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ captcha: { provider: "turnstile", secret: TURNSTILE_TEST_SECRETS.passes } });
  });
  afterAll(() => server?.stop());

  it("refuses e-mail sign-ins, resets, sign-ups and password sign-ins without a token, as GoTrue words it", async () => {
    const c = client(server);
    const refusals = [
      await c.auth.signInWithOtp({ email, options: { shouldCreateUser: false } }),
      await c.auth.resetPasswordForEmail(email),
      await c.auth.signUp({ email: "someone-new@labcash.test", password: "Sturdy-pass-42" }),
      await c.auth.signInWithPassword({ email, password: DEMO_PASSWORD }),
    ].map((r) => r.error && { status: r.error.status, code: r.error.code, message: r.error.message });
    for (const refusal of refusals) {
      expect(refusal).toEqual({
        status: 400,
        code: "captcha_failed",
        message: "captcha protection: request disallowed (no captcha_token found)",
      });
    }
    expect(await mailFor(server, email)).toHaveLength(0);
  });

  it("lets them through with the widget's token", async () => {
    const c = client(server);
    const link = await c.auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false, captchaToken: TURNSTILE_TEST_TOKEN },
    });
    expect(link.error).toBeNull();
    expect((await mailFor(server, email)).map((m) => m.kind)).toEqual(["magiclink"]);
    const signedIn = await c.auth.signInWithPassword({
      email,
      password: DEMO_PASSWORD,
      options: { captchaToken: TURNSTILE_TEST_TOKEN },
    });
    expect(signedIn.error).toBeNull();
  });

  it("asks nothing of the secret key (GoTrue skips admin callers), nor of verification and refresh", async () => {
    const site = adminClient(server);
    expect((await site.auth.resetPasswordForEmail("pending@labcash.test")).error).toBeNull();
    const [mail] = await mailFor(server, "pending@labcash.test");
    expect(
      (await client(server).auth.verifyOtp({ email: "pending@labcash.test", token: mail.token!, type: "recovery" }))
        .error,
    ).toBeNull();
  });
});

describe("with a Turnstile secret that always fails", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ captcha: { provider: "turnstile", secret: TURNSTILE_TEST_SECRETS.fails } });
  });
  afterAll(() => server?.stop());

  it("refuses a token the provider does not pass, naming the provider's error", async () => {
    const { error } = await client(server).auth.signInWithOtp({
      email,
      options: { shouldCreateUser: false, captchaToken: TURNSTILE_TEST_TOKEN },
    });
    expect(error).toMatchObject({
      status: 400,
      code: "captcha_failed",
      message: "captcha protection: request disallowed (invalid-input-response)",
    });
    expect(await mailFor(server, email)).toHaveLength(0);
  });
});
