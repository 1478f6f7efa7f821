import { describe, expect, it } from "vitest";
import { TURNSTILE_TEST_SECRETS, TURNSTILE_TEST_SITE_KEY } from "@labcash/embedded-supabase/captcha";
import { captchaKeys, emailRequestThresholds } from "@/lib/auth/captcha";
import { EMBEDDED_PUBLISHABLE_KEY } from "@labcash/embedded-supabase/keys";
import { parseEnv } from "@/lib/env";

// Which CAPTCHA the e-mail forms may offer, and so which thresholds apply: a check that passes anything is never
// the default of a production start, and without a check no threshold may refuse every visitor at once.

/** The embedded backend as the launcher points a server at it. */
const embedded = {
  SUPABASE_URL: "http://127.0.0.1:54329",
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: EMBEDDED_PUBLISHABLE_KEY,
  LABCASH_EMBEDDED: "1",
};
const productionStart = { ...embedded, NODE_ENV: "production", CLIENT_ADDRESS_HEADER: "x-forwarded-for" };
const realKeys = { TURNSTILE_SITE_KEY: "0x4AAAAAAAreal-site", TURNSTILE_SECRET_KEY: "0x4AAAAAAAreal-secret-key" };

describe("captchaKeys", () => {
  it("uses Turnstile's always-passing test keys on the embedded backend out of production only", () => {
    expect(captchaKeys(parseEnv({ ...embedded, NODE_ENV: "development" }))).toEqual({
      siteKey: TURNSTILE_TEST_SITE_KEY,
      secret: TURNSTILE_TEST_SECRETS.passes,
      test: true,
    });
    expect(captchaKeys(parseEnv(productionStart))).toBeNull();
  });

  it("uses the keys that are set, and the test keys in production only when set on purpose", () => {
    expect(captchaKeys(parseEnv({ ...productionStart, ...realKeys }))).toEqual({
      siteKey: realKeys.TURNSTILE_SITE_KEY,
      secret: realKeys.TURNSTILE_SECRET_KEY,
      test: false,
    });
    const declared = {
      TURNSTILE_SITE_KEY: TURNSTILE_TEST_SITE_KEY,
      TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.passes,
    };
    expect(captchaKeys(parseEnv({ ...productionStart, ...declared }))).toEqual({
      siteKey: TURNSTILE_TEST_SITE_KEY,
      secret: TURNSTILE_TEST_SECRETS.passes,
      test: true,
    });
  });
});

describe("emailRequestThresholds", () => {
  it("applies the site-wide threshold only where a CAPTCHA can be offered", () => {
    const thresholds = { CAPTCHA_AFTER_VISITOR_EMAILS: "4", CAPTCHA_AFTER_SITE_EMAILS: "40" };
    expect(emailRequestThresholds(parseEnv({ ...productionStart, ...realKeys, ...thresholds }))).toEqual({
      perVisitor: 4,
      perSite: 40,
    });
    // No keys: past the site's 40 no one could go on, so only each visitor's own 4 hold.
    const { perVisitor, perSite } = emailRequestThresholds(parseEnv({ ...productionStart, ...thresholds }));
    expect(perVisitor).toBe(4);
    expect(perSite).toBe(2_147_483_647);
  });
});
