// CAPTCHA tokens checked as GoTrue checks them ([auth.captcha]: a provider, Cloudflare Turnstile or hCaptcha, and
// its secret): the token goes to the provider's siteverify with the secret and the visitor's address. The providers'
// documented test secrets are answered here, as the providers answer them, without the network, so tests and a
// development machine work offline; any other secret is checked with the provider itself.

export type CaptchaProvider = "turnstile" | "hcaptcha";

export interface CaptchaSettings {
  provider: CaptchaProvider;
  secret: string;
}

/** The providers' siteverify answer, as much of it as GoTrue reads. */
export interface CaptchaVerdict {
  success: boolean;
  "error-codes": string[];
}

const PASSES: CaptchaVerdict = { success: true, "error-codes": [] };

/** Cloudflare Turnstile's test secret keys (developers.cloudflare.com/turnstile/troubleshooting/testing/). */
export const TURNSTILE_TEST_SECRETS = {
  passes: "1x0000000000000000000000000000000AA",
  fails: "2x0000000000000000000000000000000AA",
  spent: "3x0000000000000000000000000000000AA",
} as const;

/** Turnstile's test site key whose widget always passes, and the token its widget then gives. */
export const TURNSTILE_TEST_SITE_KEY = "1x00000000000000000000AA";
export const TURNSTILE_TEST_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";

/** hCaptcha's test secret and the one response it accepts (docs.hcaptcha.com/#integration-testing-test-keys). */
const HCAPTCHA_TEST_SECRET = "0x0000000000000000000000000000000000000000";
const HCAPTCHA_TEST_RESPONSE = "10000000-aaaa-bbbb-cccc-000000000001";

const SITEVERIFY: Record<CaptchaProvider, string> = {
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
};

function testVerdict({ provider, secret }: CaptchaSettings, token: string): CaptchaVerdict | undefined {
  if (provider === "turnstile") {
    if (secret === TURNSTILE_TEST_SECRETS.passes) return PASSES;
    if (secret === TURNSTILE_TEST_SECRETS.fails) return { success: false, "error-codes": ["invalid-input-response"] };
    if (secret === TURNSTILE_TEST_SECRETS.spent) return { success: false, "error-codes": ["timeout-or-duplicate"] };
  }
  if (provider === "hcaptcha" && secret === HCAPTCHA_TEST_SECRET)
    return token === HCAPTCHA_TEST_RESPONSE ? PASSES : { success: false, "error-codes": ["invalid-input-response"] };
  return undefined;
}

/**
 * Checks a widget's token. A test secret is answered here; any other goes to the provider (a failure to reach it
 * throws, which GoTrue answers 500 "captcha verification process failed").
 */
export async function verifyCaptcha(
  settings: CaptchaSettings,
  token: string,
  remoteIp: string | null,
): Promise<CaptchaVerdict> {
  if (!token) return { success: false, "error-codes": ["missing-input-response"] };
  const test = testVerdict(settings, token);
  if (test) return test;
  const form = new URLSearchParams({ secret: settings.secret, response: token });
  if (remoteIp) form.set("remoteip", remoteIp);
  const res = await fetch(SITEVERIFY[settings.provider], {
    method: "POST",
    body: form,
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`${settings.provider} siteverify answered ${res.status}`);
  const answer = (await res.json()) as Partial<CaptchaVerdict>;
  return { success: answer.success === true, "error-codes": answer["error-codes"] ?? [] };
}
