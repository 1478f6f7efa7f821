import "server-only";
import { headers } from "next/headers";
import { TURNSTILE_TEST_SECRETS, TURNSTILE_TEST_SITE_KEY, verifyCaptcha } from "@labcash/embedded-supabase/captcha";
import { fail, type ActionFailure } from "@/lib/actions/result";
import { takeEmailRequest } from "@/lib/data/email-codes";
import { DbError } from "@/lib/data/errors";
import { env, type Env } from "@/lib/env";
import { visitorKeyFrom } from "@/lib/supabase/visitor-fetch";

// The CAPTCHA the site's e-mail forms ask for past their thresholds (SQL take_email_request: a few requests per
// visitor an hour, many for the whole site, each kind apart). The site checks the token itself with Cloudflare
// Turnstile: the auth server skips its own captcha for the secret key, which the site's server must send so its
// visitors are counted apart (GoTrue's verifyCaptcha exempts admin callers); Supabase's own captcha, given the
// same secret, guards the auth server against direct callers.

export interface CaptchaKeys {
  siteKey: string;
  secret: string;
  /** Turnstile's always-passing test keys: the widget is a tick box and the check a local stand-in, offline. */
  test: boolean;
}

/**
 * The Turnstile keys: the deployment's (Turnstile's test keys when set on purpose, as the e2e servers do); out of
 * production on the embedded backend (next dev, tests), the test keys; else none. A production start never falls
 * back to the test keys: a check that passes anything is no check.
 */
export function captchaKeys(settings: Env = env()): CaptchaKeys | null {
  const { TURNSTILE_SITE_KEY, TURNSTILE_SECRET_KEY, NODE_ENV, supabase } = settings;
  if (TURNSTILE_SITE_KEY && TURNSTILE_SECRET_KEY)
    return {
      siteKey: TURNSTILE_SITE_KEY,
      secret: TURNSTILE_SECRET_KEY,
      test: TURNSTILE_SITE_KEY === TURNSTILE_TEST_SITE_KEY,
    };
  if (supabase.embedded && NODE_ENV !== "production")
    return { siteKey: TURNSTILE_TEST_SITE_KEY, secret: TURNSTILE_TEST_SECRETS.passes, test: true };
  return null;
}

/**
 * The site-wide threshold when no CAPTCHA can be offered: none (the largest count the SQL takes). Past it every
 * visitor would be refused for the hour, so a handful of visitors would stop mail for everyone; each visitor's own
 * threshold still holds, and the auth server's per-project e-mail allowance still caps the total.
 */
const NO_SITE_THRESHOLD = 2_147_483_647;

/** How many e-mail requests of one kind an hour, from one visitor and from the whole site, before the CAPTCHA. */
export function emailRequestThresholds(settings: Env = env()): { perVisitor: number; perSite: number } {
  return {
    perVisitor: settings.CAPTCHA_AFTER_VISITOR_EMAILS,
    perSite: captchaKeys(settings) ? settings.CAPTCHA_AFTER_SITE_EMAILS : NO_SITE_THRESHOLD,
  };
}

export const CAPTCHA_FAILED = "That check did not work. Please try it again.";
/** Past the visitor's threshold on a deployment without Turnstile keys: no check can be offered, so they wait. */
export const EMAIL_REQUESTS_PAUSED = "Too many e-mails have been asked for just now. Please try again later.";

/**
 * Counts an e-mail form's request for the visitor before anything looks the address up, and answers the refusal to
 * show when it may not go on: past the thresholds without a passed CAPTCHA (`captchaToken`, from the widget), the
 * form is asked for one (code captcha_required, which makes the form show the widget). Null when it may go on.
 */
export async function gateEmailRequest(
  kind: "account" | "signup",
  captchaToken: string | undefined,
): Promise<ActionFailure | null> {
  const visitor = visitorKeyFrom(await headers());
  const keys = captchaKeys();
  let passed = false;
  if (captchaToken && keys) {
    const verdict = await verifyCaptcha({ provider: "turnstile", secret: keys.secret }, captchaToken, visitor).catch(
      () => null,
    );
    if (!verdict?.success) return fail(CAPTCHA_FAILED, { code: "captcha_required" });
    passed = true;
  }
  try {
    // A request whose visitor has no address is counted with every other such request: the threshold reaches them
    // together, and the CAPTCHA still lets each through.
    await takeEmailRequest(visitor ?? "unknown", kind, passed, emailRequestThresholds());
    return null;
  } catch (e) {
    if (!(e instanceof DbError && e.code === "captcha_required")) throw e;
    return keys ? fail(e.message, { code: "captcha_required" }) : fail(EMAIL_REQUESTS_PAUSED);
  }
}

/** What the widget needs in the browser, asked only once a form needs the check. */
export function captchaWidget(): { siteKey: string; test: boolean } | null {
  const keys = captchaKeys();
  return keys && { siteKey: keys.siteKey, test: keys.test };
}
