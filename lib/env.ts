// Every environment variable the app reads, checked once with zod. App code reads `env()` (or
// `supabaseEnv()`), never `process.env`, so a missing or malformed variable is named when the
// server starts (instrumentation.ts, scripts/run.mjs) rather than by the first request that needs
// it. `.env.example` documents each variable.
//
// Not `server-only`: the dev launcher and the unit tests import it too. Nothing here is a secret
// in itself, and Next inlines no variable into client code unless it is read as a literal
// `process.env.NEXT_PUBLIC_…`, which this module never does (it reads the object it is given).
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY, EMBEDDED_URL } from "@labcash/embedded-supabase/keys";

type Source = Record<string, string | undefined>;

/** What `npm run dev`/`npm start` send to /api/cron/* when CRON_SECRET is not set: on the embedded backend only. */
export const EMBEDDED_CRON_SECRET = "labcash-dev-cron-secret";

function isUrl(value: string, protocols: string[]): boolean {
  return URL.canParse(value) && protocols.includes(new URL(value).protocol);
}

const httpUrl = z
  .string()
  .refine((v) => isUrl(v, ["http:", "https:"]), "must be an http(s) URL")
  .transform((v) => v.replace(/\/+$/, ""));

/** An origin (scheme, host, port): links are built by appending paths to it. */
const origin = z
  .string()
  .refine(
    (v) => isUrl(v, ["http:", "https:"]) && new URL(v).pathname === "/" && !new URL(v).search,
    "must be an origin such as https://labcash.example (no path)",
  )
  .transform((v) => new URL(v).origin);

/** A flag set to 1 (on) or 0 (off); unset is off. */
const flag = z
  .enum(["0", "1"], { error: "must be 1 or 0" })
  .optional()
  .transform((v) => v === "1");

const hex = (length?: number) =>
  z
    .string()
    .regex(
      length ? new RegExp(`^[0-9a-f]{${length}}$`, "i") : /^(?:[0-9a-f]{2})+$/i,
      length ? `must be ${length} hex digits` : "must be hex",
    );

const variables = z.object({
  NODE_ENV: z.string().optional(),
  /** The port Next listens on (the launcher passes it on); the local origin when SITE_URL is unset. */
  PORT: z.string().regex(/^\d+$/, "must be a port number").default("3000"),
  /** Public origin of the site: sitemap.xml, robots.txt, Open Graph URLs and links in e-mails. */
  SITE_URL: origin.optional(),
  /**
   * The request header the proxy in front of the site writes the visitor's address into. Per-visitor limits
   * (the auth server's, forwarded by lib/supabase/visitor-fetch.ts) count by it. On Vercel its own
   * x-vercel-forwarded-for; elsewhere required in production, as only the operator knows their proxy.
   */
  CLIENT_ADDRESS_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, "must be a header name, e.g. x-real-ip")
    .transform((v) => v.toLowerCase())
    .optional(),
  /**
   * Which entry of a list such as X-Forwarded-For is the visitor, counted from the right: 1, the last, is the
   * one the proxy appended (everything left of it came from the client, who can write anything there); 2 when a
   * second proxy of yours appends after it, and so on.
   */
  CLIENT_ADDRESS_HOPS: z.coerce
    .number({ error: "must be a whole number from 1 to 10" })
    .int("must be a whole number from 1 to 10")
    .min(1, "must be a whole number from 1 to 10")
    .max(10, "must be a whole number from 1 to 10")
    .default(1),
  NEXT_PUBLIC_SUPABASE_URL: httpUrl.optional(),
  /** Overrides NEXT_PUBLIC_SUPABASE_URL at run time (the launcher points the app at an embedded backend with it). */
  SUPABASE_URL: httpUrl.optional(),
  NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: z
    .string()
    .startsWith("sb_publishable_", "must start with sb_publishable_")
    .optional(),
  SUPABASE_SECRET_KEY: z.string().startsWith("sb_secret_", "must start with sb_secret_").optional(),
  // Vercel's advice for a cron secret: a random string of at least 16 characters.
  CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  SMTP_URL: z
    .string()
    .refine((v) => isUrl(v, ["smtp:", "smtps:"]), "must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(/[^\s@<>]+@[^\s@<>]+/, 'must contain an e-mail address, e.g. "LabCash <no-reply@labcash.example>"')
    .optional(),
  DRAW_RANDOMNESS: z
    .enum(["none", "drand", "random.org"], { error: "must be none, drand or random.org" })
    .default("none"),
  DRAND_URL: httpUrl.optional(),
  DRAND_CHAIN: hex(64).optional(),
  DRAND_PUBLIC_KEY: hex().optional(),
  RANDOM_ORG_API_KEY: z.string().optional(),
  /** Set by Vercel on its builds and functions. */
  VERCEL: flag,
  LABCASH_ANALYTICS: flag,
  LABCASH_EMBEDDED: flag,
  // Restricted keys (rk_) are Stripe's least-privilege secret keys; pk_ is the publishable key, which is the usual mistake.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(?:sk|rk)_(?:test|live)_\w+$/, "must start with sk_test_ or sk_live_ (rk_ for a restricted key), not pk_")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "must start with whsec_")
    .optional(),
  /** test: the built-in test checkout (credit without payment) on purpose, where production would refuse it. */
  PAYMENTS: z.enum(ENUM_VALUES.payment_provider, { error: "must be stripe or test" }).optional(),
  /**
   * Cloudflare Turnstile, for the CAPTCHA the site's e-mail forms ask for past their thresholds (lib/auth/captcha.ts):
   * the widget's site key (sent to the browser only when the check is needed) and its secret (server only). Unset on
   * the embedded backend out of production: Turnstile's test keys, checked offline; unset in any production start: no
   * check, and only the per-visitor threshold applies.
   */
  TURNSTILE_SITE_KEY: z
    .string()
    .regex(/^[\w-]{10,64}$/, "must be a Turnstile site key (0x…)")
    .optional(),
  TURNSTILE_SECRET_KEY: z
    .string()
    .regex(/^[\w-]{10,128}$/, "must be a Turnstile secret key (0x…)")
    .optional(),
  /**
   * When the e-mail forms (sign-in link, reset, sign-up) ask for the CAPTCHA: after this many requests of one kind from
   * one visitor in an hour, or from the whole site when Turnstile keys are set (SQL take_email_request).
   */
  CAPTCHA_AFTER_VISITOR_EMAILS: z.coerce.number().int().min(1, "must be 1 or more").default(3),
  CAPTCHA_AFTER_SITE_EMAILS: z.coerce.number().int().min(1, "must be 1 or more").default(50),
  /** Server errors go to Sentry (@sentry/nextjs, server side only) when set; nothing is loaded otherwise. */
  SENTRY_DSN: z
    .string()
    .refine(
      (v) => isUrl(v, ["https:", "http:"]) && Boolean(new URL(v).username),
      "must be a Sentry DSN (https://key@host/project)",
    )
    .optional(),
  SENTRY_ENVIRONMENT: z
    .string()
    .regex(/^[\w.-]{1,64}$/, "must be a short name such as production")
    .optional(),
  /** OpenTelemetry traces (@vercel/otel): exported here (OTLP over HTTP) when set; on Vercel its own collector is used. */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  /** Web Push (VAPID, RFC 8292): base64url keys from `npx web-push generate-vapid-keys`; derived on the embedded backend. */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, "must be an uncompressed P-256 public key, base64url (87 characters)")
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, "must be a P-256 private key, base64url (43 characters)")
    .optional(),
  /** Who the push services may contact about this sender: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .refine((v) => isUrl(v, ["mailto:", "https:"]), "must be a mailto: or https: URL")
    .optional(),
  /**
   * The Vercel AI Gateway's API key: when set, an AI model phrases the help assistant's answer from the passages
   * retrieval found (lib/assistant/phrase.ts); unset, retrieval alone answers. Never sent to the browser.
   */
  AI_GATEWAY_API_KEY: z.string().min(1).optional(),
  /** The gateway's model for that phrasing, as "provider/model". */
  ASSISTANT_AI_MODEL: z
    .string()
    .regex(/^[a-z0-9][\w.-]*\/[\w.:-]+$/i, "must be an AI Gateway model id such as openai/gpt-5-mini")
    .default("openai/gpt-5-mini"),
  OTEL_SERVICE_NAME: z
    .string()
    .regex(/^[\w.-]{1,64}$/, "must be a short name such as labcash")
    .default("labcash"),
});

/** Every variable this module reads, in `.env.example`'s words (NODE_ENV is set by Next and Node tools). */
export const ENV_VARIABLES = Object.keys(variables.shape) as Array<keyof typeof variables.shape>;

export interface SupabaseSettings {
  url: string;
  publishableKey: string;
  secretKey: string | undefined;
  /** The embedded development backend, whose keys and cron secret are public defaults. */
  embedded: boolean;
}

/** Where a request's visitor address is read: a header, and which of its comma-separated entries from the right. */
export interface ClientAddressSource {
  header: string;
  hops: number;
}

/** Vercel writes the connecting client's address into this header itself, whatever the client sent. */
export const VERCEL_CLIENT_ADDRESS_HEADER = "x-vercel-forwarded-for";
/**
 * Off Vercel and out of production (next dev, tests): what Next itself sets from the connection when a request has
 * none. A production server never falls back to it (CLIENT_ADDRESS_HEADER is required there).
 */
const LOCAL_CLIENT_ADDRESS_HEADER = "x-forwarded-for";

export type Env = z.output<typeof variables> & {
  supabase: SupabaseSettings;
  clientAddress: ClientAddressSource;
  /**
   * Who takes payments: Stripe Checkout, or the built-in test checkout, where the player chooses
   * the outcome and credit costs nothing (every page then says so: components/layout/test-payments-banner.tsx).
   */
  payments: "stripe" | "test";
  /** A deployment (Vercel, or a production build against a hosted backend): its secrets are required. */
  production: boolean;
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Missing or malformed environment variables (see .env.example):\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "EnvError";
  }
}

/**
 * Checks `source` (normally `process.env`) and returns the typed settings, or throws an EnvError
 * naming every missing or malformed variable. An empty value counts as unset, as in a `.env` file.
 */
export function parseEnv(source: Source): Env {
  const raw: Source = Object.fromEntries(ENV_VARIABLES.map((name) => [name, source[name]?.trim() || undefined]));
  if (raw.DRAW_RANDOMNESS) raw.DRAW_RANDOMNESS = raw.DRAW_RANDOMNESS.toLowerCase();
  if (raw.PAYMENTS) raw.PAYMENTS = raw.PAYMENTS.toLowerCase();
  const parsed = variables.safeParse(raw);
  // Values are never echoed: several are secrets.
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`);

  const hostedUrl = raw.SUPABASE_URL ?? raw.NEXT_PUBLIC_SUPABASE_URL;
  const embedded = !hostedUrl || hostedUrl.replace(/\/+$/, "") === EMBEDDED_URL || raw.LABCASH_EMBEDDED === "1";
  const production = raw.VERCEL === "1" || (raw.NODE_ENV === "production" && !embedded);
  // A production server, embedded backend or not (next build also runs with NODE_ENV production, serving no one).
  const productionStart = raw.NODE_ENV === "production" && source.NEXT_PHASE !== "phase-production-build";
  const missing = (name: string, why: string) => {
    if (!raw[name]) problems.push(`${name} is missing: ${why}`);
  };
  if (hostedUrl) missing("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY", "required with NEXT_PUBLIC_SUPABASE_URL");
  if (production) {
    missing("SITE_URL", "required in production (the public origin, e.g. https://labcash.example)");
    if (!hostedUrl) missing("NEXT_PUBLIC_SUPABASE_URL", "required in production (the Supabase project URL)");
    missing("SUPABASE_SECRET_KEY", "required in production");
    missing("CRON_SECRET", "required in production (Vercel Cron sends it to /api/cron/*)");
  }
  // Every production server must know who wrote the address its per-visitor limits count: Next fills
  // X-Forwarded-For from the connection only when a request has none, so a client could choose its own.
  // `npm start` sets it itself (scripts/run.mjs: the connection's own address) unless a proxy's header is named.
  if (productionStart && raw.VERCEL !== "1")
    missing(
      "CLIENT_ADDRESS_HEADER",
      "required in production off Vercel: the request header your proxy writes the visitor's address into " +
        "(e.g. x-real-ip, or x-forwarded-for when the proxy appends to it; CLIENT_ADDRESS_HOPS says which entry " +
        "from the right, default 1), so each visitor's limits are their own; `npm start` without a proxy sets it " +
        "itself",
    );
  if (raw.DRAW_RANDOMNESS === "random.org") missing("RANDOM_ORG_API_KEY", "required when DRAW_RANDOMNESS=random.org");
  if (raw.DRAND_CHAIN) missing("DRAND_PUBLIC_KEY", "required with DRAND_CHAIN (the chain's BLS public key)");
  if (raw.STRIPE_SECRET_KEY)
    missing("STRIPE_WEBHOOK_SECRET", "required with STRIPE_SECRET_KEY (payments are confirmed by the webhook)");
  if (raw.STRIPE_WEBHOOK_SECRET) missing("STRIPE_SECRET_KEY", "required with STRIPE_WEBHOOK_SECRET");
  if (raw.TURNSTILE_SITE_KEY) missing("TURNSTILE_SECRET_KEY", "required with TURNSTILE_SITE_KEY");
  if (raw.TURNSTILE_SECRET_KEY) missing("TURNSTILE_SITE_KEY", "required with TURNSTILE_SECRET_KEY");
  if (raw.VAPID_PUBLIC_KEY || raw.VAPID_PRIVATE_KEY) {
    for (const name of ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"])
      missing(name, "required with the other VAPID keys (web push)");
  }
  // No free credit in production: the test checkout runs there only when PAYMENTS=test says so.
  // Locally (next dev, or any build on the embedded backend: npm start, the e2e run, the benches)
  // it is the default, as the embedded backend is.
  const stripe = Boolean(raw.STRIPE_SECRET_KEY || raw.STRIPE_WEBHOOK_SECRET);
  if (raw.PAYMENTS === "test" && stripe)
    problems.push(
      "PAYMENTS=test cannot be combined with STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET: unset one or the other",
    );
  else if (raw.PAYMENTS === "stripe" || (production && raw.PAYMENTS !== "test")) {
    const why =
      raw.PAYMENTS === "stripe"
        ? "required with PAYMENTS=stripe"
        : "required in production (or PAYMENTS=test to run the test checkout, which credits without payment)";
    if (!stripe) for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"]) missing(name, why);
  }

  if (!parsed.success || problems.length > 0) throw new EnvError(problems);
  const values = parsed.data;
  const url = values.SUPABASE_URL ?? values.NEXT_PUBLIC_SUPABASE_URL;
  const supabase: SupabaseSettings =
    url && values.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY
      ? {
          url,
          publishableKey: values.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY,
          secretKey: values.SUPABASE_SECRET_KEY,
          embedded,
        }
      : { url: EMBEDDED_URL, publishableKey: EMBEDDED_PUBLISHABLE_KEY, secretKey: EMBEDDED_SECRET_KEY, embedded: true };
  const payments = values.STRIPE_SECRET_KEY ? "stripe" : "test";
  const clientAddress: ClientAddressSource = {
    header:
      values.CLIENT_ADDRESS_HEADER ?? (values.VERCEL ? VERCEL_CLIENT_ADDRESS_HEADER : LOCAL_CLIENT_ADDRESS_HEADER),
    hops: values.CLIENT_ADDRESS_HOPS,
  };
  return { ...values, supabase, clientAddress, production, payments };
}

let cached: Env | undefined;

/** This process's settings, checked on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Where the backend is. Read at run time on the server (never inlined into the browser bundle):
 * all Supabase traffic goes through this server. Without a URL, the embedded backend's defaults.
 */
export function supabaseEnv(): SupabaseSettings {
  return env().supabase;
}
