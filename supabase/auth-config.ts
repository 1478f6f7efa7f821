// supabase/config.toml's [auth] as the embedded backend's settings: the one source of the auth server's settings.
// `npx supabase config push` sends the same file to a hosted project; the embedded backend reads it here, so
// the two cannot drift. `env(NAME)` values are read from the environment, as the Supabase CLI reads them; an
// unset one leaves that setting to the backend's own default (or its EMBEDDED_* variable).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import toml from "toml";
import { z } from "zod";
import type { EmbeddedServerOptions } from "@labcash/embedded-supabase/server";

export const configFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "config.toml");

/** "60s", "5m", "1h": the CLI's durations, in seconds. */
const duration = z
  .string()
  .regex(/^\d+[smh]$/, "a duration such as 60s")
  .transform((value) => Number(value.slice(0, -1)) * { s: 1, m: 60, h: 3600 }[value.at(-1) as "s" | "m" | "h"]);

const template = z.object({ subject: z.string().min(1), content_path: z.string().min(1) });

/** The part of [auth] the embedded backend honours (the CLI's names); anything else is the hosted project's alone. */
const authSchema = z.object({
  site_url: z.string(),
  additional_redirect_urls: z.array(z.string()).default([]),
  refresh_token_reuse_interval: z.number().int().nonnegative(),
  minimum_password_length: z.number().int().min(6),
  password_requirements: z.enum([
    "",
    "letters_digits",
    "lower_upper_letters_digits",
    "lower_upper_letters_digits_symbols",
  ]),
  email: z.object({
    enable_confirmations: z.boolean(),
    otp_length: z.number().int().min(6).max(10),
    otp_expiry: z.number().int().positive(),
    max_frequency: duration,
    template: z.record(z.string(), template),
  }),
  rate_limit: z.object({
    sign_in_sign_ups: z.number().int().positive(),
    token_refresh: z.number().int().positive(),
    token_verifications: z.number().int().positive(),
  }),
  captcha: z.object({ enabled: z.boolean(), provider: z.enum(["turnstile", "hcaptcha"]), secret: z.string() }),
  hook: z.object({ mfa_verification_attempt: z.object({ enabled: z.boolean(), uri: z.string() }) }),
});
export type AuthConfig = z.infer<typeof authSchema>;

type Environment = Record<string, string | undefined>;

/** `env(NAME)` is NAME's value (undefined when unset or empty); anything else is itself. */
export function resolveEnv(value: string, env: Environment): string | undefined {
  const name = /^env\((\w+)\)$/.exec(value)?.[1];
  if (!name) return value;
  return env[name]?.trim() || undefined;
}

/** [auth] of supabase/config.toml (or `text`), checked. */
export function readAuthConfig(text = readFileSync(configFile, "utf8")): AuthConfig {
  return authSchema.parse((toml.parse(text) as { auth?: unknown }).auth);
}

/**
 * The embedded server's options from [auth]. An unset `env()` (the site URL, the CAPTCHA secret) leaves the
 * backend's own default or its EMBEDDED_* variable in place. The rate limits are GoTrue's defaults in both (a test
 * holds them equal) and are not passed, so an end-to-end run can still turn them off (EMBEDDED_RATE_LIMITS=off).
 */
export function embeddedAuthOptions(auth: AuthConfig, env: Environment = process.env): EmbeddedServerOptions {
  const options: EmbeddedServerOptions = {
    mailConfirmation: auth.email.enable_confirmations,
    refreshReuseSeconds: auth.refresh_token_reuse_interval,
    passwordPolicy: { minLength: auth.minimum_password_length, requirements: auth.password_requirements },
    emailOtp: { length: auth.email.otp_length, expirySeconds: auth.email.otp_expiry },
  };
  const siteUrl = resolveEnv(auth.site_url, env);
  if (siteUrl) options.siteUrl = new URL(siteUrl).origin;
  const redirects = auth.additional_redirect_urls.flatMap((url) => resolveEnv(url, env) ?? []);
  if (redirects.length) options.redirectAllowList = redirects;
  const captchaSecret = auth.captcha.enabled ? resolveEnv(auth.captcha.secret, env) : undefined;
  if (captchaSecret) options.captcha = { provider: auth.captcha.provider, secret: captchaSecret };
  if (auth.hook.mfa_verification_attempt.enabled)
    options.mfaVerificationAttemptHook = auth.hook.mfa_verification_attempt.uri;
  return options;
}
