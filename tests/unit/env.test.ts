import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, EnvError, parseEnv } from "@/lib/env";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_URL } from "@labcash/embedded-supabase/keys";

// A complete production configuration, as set in Vercel.
const production = {
  NODE_ENV: "production",
  VERCEL: "1",
  SITE_URL: "https://labcash.example",
  NEXT_PUBLIC_SUPABASE_URL: "https://abcdefgh.supabase.co",
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_abc123",
  SUPABASE_SECRET_KEY: "sb_secret_abc123",
  CRON_SECRET: "a-long-random-cron-secret",
  STRIPE_SECRET_KEY: "sk_live_51abc",
  STRIPE_WEBHOOK_SECRET: "whsec_abc",
};

const NO_STRIPE = { STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined };
const STRIPE_IN_PRODUCTION = [
  "STRIPE_SECRET_KEY is missing: required in production (or PAYMENTS=test to run the test checkout, which credits without payment)",
  "STRIPE_WEBHOOK_SECRET is missing: required in production (or PAYMENTS=test to run the test checkout, which credits without payment)",
];

const CLIENT_ADDRESS_MISSING =
  "CLIENT_ADDRESS_HEADER is missing: required in production off Vercel: the request header your proxy writes the " +
  "visitor's address into (e.g. x-real-ip, or x-forwarded-for when the proxy appends to it; CLIENT_ADDRESS_HOPS says " +
  "which entry from the right, default 1), so each visitor's limits are their own; `npm start` without a proxy sets " +
  "it itself";

function problems(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (e) {
    if (e instanceof EnvError) return e.problems;
    throw e;
  }
  throw new Error("parseEnv accepted the environment");
}

describe("parseEnv", () => {
  it("accepts a complete production configuration and types its values", () => {
    const env = parseEnv({
      ...production,
      SITE_URL: "https://labcash.example/",
      SMTP_URL: "smtps://user:pass@smtp.example:465",
      MAIL_FROM: "LabCash <no-reply@labcash.example>",
      DRAW_RANDOMNESS: "DRAND",
    });
    expect(env.SITE_URL).toBe("https://labcash.example");
    expect(env.DRAW_RANDOMNESS).toBe("drand");
    expect(env.VERCEL).toBe(true);
    expect(env.LABCASH_ANALYTICS).toBe(false);
    expect(env.production).toBe(true);
    expect(env.payments).toBe("stripe");
    expect(env.supabase).toEqual({
      url: "https://abcdefgh.supabase.co",
      publishableKey: "sb_publishable_abc123",
      secretKey: "sb_secret_abc123",
      embedded: false,
    });
  });

  it("needs nothing for local development: the embedded backend's defaults", () => {
    const env = parseEnv({ NODE_ENV: "development" });
    expect(env.supabase).toMatchObject({ url: EMBEDDED_URL, publishableKey: EMBEDDED_PUBLISHABLE_KEY, embedded: true });
    expect(env.SITE_URL).toBeUndefined();
    expect(env.PORT).toBe("3000");
    expect(env.DRAW_RANDOMNESS).toBe("none");
    expect(env.production).toBe(false);
    expect(env.payments).toBe("test");
  });

  it("treats a production build on the embedded backend (npm start, e2e) as local", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      SUPABASE_URL: "http://127.0.0.1:54329",
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: EMBEDDED_PUBLISHABLE_KEY,
      LABCASH_EMBEDDED: "1",
      // What the launcher sets when it serves the build itself (scripts/run.mjs).
      CLIENT_ADDRESS_HEADER: "x-forwarded-for",
    });
    expect(env.production).toBe(false);
    expect(env.supabase).toMatchObject({ url: "http://127.0.0.1:54329", embedded: true });
    // The embedded backend is a test backend: its test checkout needs no PAYMENTS=test.
    expect(env.payments).toBe("test");
  });

  it("refuses a production start without Stripe keys unless PAYMENTS=test says so", () => {
    // On Vercel, and a production build against hosted Supabase without Vercel.
    expect(problems({ ...production, ...NO_STRIPE })).toEqual(STRIPE_IN_PRODUCTION);
    expect(problems({ ...production, ...NO_STRIPE, VERCEL: undefined, CLIENT_ADDRESS_HEADER: "x-real-ip" })).toEqual(
      STRIPE_IN_PRODUCTION,
    );
    expect(() => parseEnv({ ...production, ...NO_STRIPE })).toThrow(/STRIPE_SECRET_KEY[\s\S]*STRIPE_WEBHOOK_SECRET/);
    // Said explicitly: a demo deployment with the test checkout (and its banner).
    const demo = parseEnv({ ...production, ...NO_STRIPE, PAYMENTS: "Test" });
    expect(demo.payments).toBe("test");
    expect(demo.production).toBe(true);
    // With the keys: Stripe, with or without PAYMENTS=stripe.
    expect(parseEnv(production).payments).toBe("stripe");
    expect(parseEnv({ ...production, PAYMENTS: "stripe" }).payments).toBe("stripe");
  });

  it("refuses a PAYMENTS that contradicts the Stripe keys", () => {
    expect(problems({ ...production, PAYMENTS: "test" })).toEqual([
      "PAYMENTS=test cannot be combined with STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET: unset one or the other",
    ]);
    expect(problems({ NODE_ENV: "development", PAYMENTS: "stripe" })).toEqual([
      "STRIPE_SECRET_KEY is missing: required with PAYMENTS=stripe",
      "STRIPE_WEBHOOK_SECRET is missing: required with PAYMENTS=stripe",
    ]);
    expect(problems({ NODE_ENV: "development", PAYMENTS: "free" })).toEqual(["PAYMENTS must be stripe or test"]);
  });

  it("names every variable a production deployment is missing", () => {
    expect(problems({ NODE_ENV: "production", VERCEL: "1" })).toEqual([
      "SITE_URL is missing: required in production (the public origin, e.g. https://labcash.example)",
      "NEXT_PUBLIC_SUPABASE_URL is missing: required in production (the Supabase project URL)",
      "SUPABASE_SECRET_KEY is missing: required in production",
      "CRON_SECRET is missing: required in production (Vercel Cron sends it to /api/cron/*)",
      ...STRIPE_IN_PRODUCTION,
    ]);
    expect(problems({ ...production, SITE_URL: "" })).toEqual([
      "SITE_URL is missing: required in production (the public origin, e.g. https://labcash.example)",
    ]);
    // A hosted backend without Vercel is production too once the build is, and must say where visitors' addresses are.
    expect(problems({ ...production, VERCEL: undefined, CRON_SECRET: undefined })).toEqual([
      "CRON_SECRET is missing: required in production (Vercel Cron sends it to /api/cron/*)",
      CLIENT_ADDRESS_MISSING,
    ]);
  });

  it("knows where a visitor's address comes from: Vercel's own header there, the proxy's header elsewhere", () => {
    // On Vercel: the header Vercel itself writes from the connection, unless another is named.
    expect(parseEnv(production).clientAddress).toEqual({ header: "x-vercel-forwarded-for", hops: 1 });
    expect(parseEnv({ ...production, CLIENT_ADDRESS_HEADER: "CF-Connecting-IP" }).clientAddress).toEqual({
      header: "cf-connecting-ip",
      hops: 1,
    });
    // A production start elsewhere refuses to guess, and says what to set.
    const selfHosted = { ...production, VERCEL: undefined };
    expect(problems(selfHosted)).toEqual([CLIENT_ADDRESS_MISSING]);
    expect(() => parseEnv(selfHosted)).toThrow(/CLIENT_ADDRESS_HEADER is missing/);
    expect(
      parseEnv({ ...selfHosted, CLIENT_ADDRESS_HEADER: "X-Forwarded-For", CLIENT_ADDRESS_HOPS: "2" }).clientAddress,
    ).toEqual({ header: "x-forwarded-for", hops: 2 });
    for (const hops of ["0", "11", "1.5", "right"])
      expect(problems({ ...production, CLIENT_ADDRESS_HOPS: hops })).toEqual([
        "CLIENT_ADDRESS_HOPS must be a whole number from 1 to 10",
      ]);
    expect(problems({ ...production, CLIENT_ADDRESS_HEADER: "x forwarded for" })).toEqual([
      "CLIENT_ADDRESS_HEADER must be a header name, e.g. x-real-ip",
    ]);
    // Development and tests start without it: Next fills X-Forwarded-For from the connection when a request has
    // none, and a client may write its own (only the developer's own limits are at stake).
    expect(parseEnv({ NODE_ENV: "development" }).clientAddress).toEqual({ header: "x-forwarded-for", hops: 1 });
    // A production server on the embedded backend refuses too (`npm start` names the header itself); the build,
    // which serves no one, does not.
    expect(problems({ NODE_ENV: "production", LABCASH_EMBEDDED: "1" })).toEqual([CLIENT_ADDRESS_MISSING]);
    expect(
      parseEnv({ NODE_ENV: "production", LABCASH_EMBEDDED: "1", NEXT_PHASE: "phase-production-build" }).clientAddress,
    ).toEqual({ header: "x-forwarded-for", hops: 1 });
  });

  it("refuses malformed URLs and names them in the error message", () => {
    const source = {
      ...production,
      SITE_URL: "labcash.example",
      NEXT_PUBLIC_SUPABASE_URL: "ftp://abcdefgh.supabase.co",
      SMTP_URL: "http://smtp.example",
    };
    expect(problems(source)).toEqual([
      "SITE_URL must be an origin such as https://labcash.example (no path)",
      "NEXT_PUBLIC_SUPABASE_URL must be an http(s) URL",
      "SMTP_URL must be an smtp:// or smtps:// URL",
    ]);
    expect(problems({ ...production, SITE_URL: "https://labcash.example/shop" })).toEqual([
      "SITE_URL must be an origin such as https://labcash.example (no path)",
    ]);
    expect(() => parseEnv(source)).toThrow(
      /Missing or malformed environment variables \(see \.env\.example\):\n {2}- SITE_URL must be/,
    );
  });

  it("refuses Stripe keys with the wrong prefix, and one without the other", () => {
    expect(
      problems({ ...production, STRIPE_SECRET_KEY: "pk_live_51abc", STRIPE_WEBHOOK_SECRET: "sk_live_51abc" }),
    ).toEqual([
      "STRIPE_SECRET_KEY must start with sk_test_ or sk_live_ (rk_ for a restricted key), not pk_",
      "STRIPE_WEBHOOK_SECRET must start with whsec_",
    ]);
    expect(problems({ ...production, ...NO_STRIPE, STRIPE_SECRET_KEY: "sk_test_51abc" })).toEqual([
      "STRIPE_WEBHOOK_SECRET is missing: required with STRIPE_SECRET_KEY (payments are confirmed by the webhook)",
    ]);
    expect(
      parseEnv({ ...production, STRIPE_SECRET_KEY: "rk_test_51abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" })
        .STRIPE_SECRET_KEY,
    ).toBe("rk_test_51abc");
  });

  it("checks the port, the Supabase keys, the cron secret, flags and draw randomness", () => {
    expect(
      problems({
        PORT: "http",
        NEXT_PUBLIC_SUPABASE_URL: "https://abcdefgh.supabase.co",
        SUPABASE_SECRET_KEY: "sb_publishable_abc",
        CRON_SECRET: "short",
        LABCASH_ANALYTICS: "yes",
        DRAW_RANDOMNESS: "dice",
      }),
    ).toEqual([
      "PORT must be a port number",
      "SUPABASE_SECRET_KEY must start with sb_secret_",
      "CRON_SECRET must be at least 16 characters",
      "DRAW_RANDOMNESS must be none, drand or random.org",
      "LABCASH_ANALYTICS must be 1 or 0",
      "NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY is missing: required with NEXT_PUBLIC_SUPABASE_URL",
    ]);
    expect(problems({ DRAW_RANDOMNESS: "random.org", DRAND_CHAIN: "f".repeat(64) })).toEqual([
      "RANDOM_ORG_API_KEY is missing: required when DRAW_RANDOMNESS=random.org",
      "DRAND_PUBLIC_KEY is missing: required with DRAND_CHAIN (the chain's BLS public key)",
    ]);
  });

  it("reads only variables that .env.example documents", () => {
    const documented = new Set(
      [...readFileSync(".env.example", "utf8").matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]),
    );
    expect(ENV_VARIABLES.filter((name) => name !== "NODE_ENV" && !documented.has(name))).toEqual([]);
  });

  it("never echoes a value: secrets stay out of logs", () => {
    const message = (() => {
      try {
        parseEnv({ ...production, SMTP_URL: "http://user:hunter2@smtp.example", SUPABASE_SECRET_KEY: "oops-hunter2" });
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(message).toContain("SMTP_URL");
    expect(message).toContain("SUPABASE_SECRET_KEY");
    expect(message).not.toContain("hunter2");
  });
});
