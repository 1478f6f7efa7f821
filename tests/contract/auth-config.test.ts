// supabase/config.toml is the one source of the auth server's settings: `npx supabase config push` sends it to a
// hosted project and the embedded backend reads it itself (supabase/auth-config.ts). Here the embedded backend,
// started as the app starts it, behaves as the file says.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOTRUE_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import { embeddedAuthOptions, readAuthConfig, resolveEnv } from "@/supabase/auth-config";
import { appServerOptions } from "@/supabase/embedded";
import { newPasswordSchema } from "@/lib/validation/auth";
import { EMAIL_CODE_LENGTH } from "@/lib/validation/email-code";
import { birthDateYearsAgo, client, mailFor, raw, startTestServer, uniqueEmail, type TestServer } from "./helpers";

const auth = readAuthConfig();
let server: TestServer;
beforeAll(async () => {
  // The app's own options (config.toml's auth settings), with the limits the other contract tests turn off.
  server = await startTestServer({ ...appServerOptions(), rateLimits: GOTRUE_RATE_LIMITS });
});
afterAll(() => server?.stop());

/** A sign-up with `password`, as any caller of the auth server may try it. */
function signUp(password: string) {
  return client(server).auth.signUp({
    email: uniqueEmail("policy"),
    password,
    options: { data: { date_of_birth: birthDateYearsAgo(30) } },
  });
}

describe("supabase/config.toml and the embedded backend", () => {
  it("sets what the site needs", () => {
    expect(auth.minimum_password_length).toBe(8);
    expect(auth.password_requirements).toBe("lower_upper_letters_digits");
    expect(auth.email.otp_length).toBe(EMAIL_CODE_LENGTH);
    expect(auth.email.otp_expiry).toBe(600);
    expect(auth.site_url).toBe("env(SITE_URL)");
  });

  it("refuses a password shorter than minimum_password_length, whoever calls", async () => {
    const short = "Ab1".padEnd(auth.minimum_password_length - 1, "x");
    const { error } = await signUp(short);
    expect(error?.code).toBe("weak_password");
    expect(error?.message).toContain(`at least ${auth.minimum_password_length} characters`);
    expect((await signUp(`${short}y`)).error).toBeNull();
    // The site's own forms draw the same line.
    expect(newPasswordSchema.safeParse(short).success).toBe(false);
    expect(newPasswordSchema.safeParse(`${short}y`).success).toBe(true);
  });

  it("refuses a password without each kind of character password_requirements names", async () => {
    for (const weak of ["alllowercase1", "ALLUPPERCASE1", "NoDigitsHere"]) {
      const { error } = await signUp(weak);
      expect(error?.code, weak).toBe("weak_password");
      expect(newPasswordSchema.safeParse(weak).success, weak).toBe(false);
    }
  });

  it("e-mails codes of otp_length digits, saying they last otp_expiry", async () => {
    const email = uniqueEmail("otp");
    await client(server).auth.signUp({
      email,
      password: "Sturdy-pass-42",
      options: { data: { date_of_birth: birthDateYearsAgo(30) } },
    });
    await client(server).auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    const [mail] = await mailFor(server, email);
    expect(mail.token).toMatch(new RegExp(`^\\d{${auth.email.otp_length}}$`));
    expect(mail.body).toContain(`expire in ${auth.email.otp_expiry / 60} minutes`);
  });

  it("answers the auth server's public settings as enable_confirmations says", async () => {
    const settings = (await (await raw(server, "/auth/v1/settings")).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ mailer_autoconfirm: !auth.email.enable_confirmations, disable_signup: false });
  });

  it("keeps GoTrue's rate limits, which the embedded backend uses too", () => {
    expect(auth.rate_limit).toMatchObject({
      sign_in_sign_ups: GOTRUE_RATE_LIMITS.signInsPerFiveMinutes,
      token_refresh: GOTRUE_RATE_LIMITS.refreshesPerFiveMinutes,
      token_verifications: GOTRUE_RATE_LIMITS.verificationsPerFiveMinutes,
    });
    expect(auth.email.max_frequency).toBe(GOTRUE_RATE_LIMITS.emailSecondsApart);
  });

  it("reads env() from the environment, leaving unset ones to the backend", () => {
    expect(resolveEnv("env(SITE_URL)", { SITE_URL: "https://labcash.example" })).toBe("https://labcash.example");
    expect(resolveEnv("env(SITE_URL)", {})).toBeUndefined();
    const withEnv = embeddedAuthOptions(auth, {
      SITE_URL: "https://labcash.example/",
      SUPABASE_AUTH_CAPTCHA_SECRET: "0x4AAAAAAA-secret",
    });
    expect(withEnv.siteUrl).toBe("https://labcash.example");
    expect(withEnv.captcha).toEqual({ provider: "turnstile", secret: "0x4AAAAAAA-secret" });
    const without = embeddedAuthOptions(auth, {});
    expect("siteUrl" in without || "captcha" in without).toBe(false);
  });

  it("lists an e-mail template file for every auth e-mail the site sends", () => {
    expect(Object.keys(auth.email.template).sort()).toEqual(["confirmation", "invite", "magic_link", "recovery"]);
    for (const { content_path } of Object.values(auth.email.template))
      expect(readFileSync(content_path, "utf8")).toContain("/auth/confirm?email={{ .Email }}&code={{ .Token }}");
  });
});
