// The go-live check: reads the configured project (the auth server, the database, Storage, the site itself and
// Stripe's signing secret) and says, item by item, what is wrong before real players find it. `npm run
// check:production` (scripts/check-production.ts) and /admin/system run the same checks; both run on the server
// only, as the secret key is needed to read the project.
//
// Each check answers a stable code, a verdict and one sentence. "fail": the site is broken or unsafe for players
// as configured; "warn": it works, but not as a real money site (test payments, test-mode keys).
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import Stripe from "stripe";
import { z } from "zod";
import { COMPETITION_IMAGE_BUCKET, WINNER_PHOTO_BUCKET } from "@/lib/competitions/images";
import { callRpcWith } from "@/lib/data/rpc";
import { EMBEDDED_CRON_SECRET } from "@/lib/env";
import type { Database } from "@/lib/supabase/database.types";
import { readAuthConfig } from "@/supabase/auth-config";

export const CHECK_CODES = [
  "publishable_key",
  "secret_key",
  "migrations",
  "demo_data",
  "storage_buckets",
  "storage_policies",
  "auth_signup",
  "auth_password_policy",
  "auth_redirect",
  "client_address",
  "cron_secret",
  "cron_recent",
  "stripe_keys",
  "stripe_webhook",
  "mail",
] as const;
export type CheckCode = (typeof CHECK_CODES)[number];
export type Verdict = "pass" | "warn" | "fail";

export interface CheckResult {
  code: CheckCode;
  verdict: Verdict;
  message: string;
}

/** What the check reads: the site's settings as its server has them, and what the repository expects. */
export interface ProductionCheckInput {
  supabaseUrl: string | undefined;
  publishableKey: string | undefined;
  secretKey: string | undefined;
  /** The site's public origin (SITE_URL): where the auth server's links must be allowed to lead. */
  siteUrl: string | undefined;
  cronSecret: string | undefined;
  /** supabase/migrations' versions, in order. */
  repositoryMigrations: string[];
  /** supabase/config.toml's [auth.email] enable_confirmations: whether new accounts confirm their address first. */
  emailConfirmations: boolean;
  /** Whether the visitor-address header named by CLIENT_ADDRESS_HEADER arrived on a request to the site (null: not known). */
  clientAddressArrived: boolean | null;
  /** The header it looked for, named in the sentence. */
  clientAddressHeader: string;
  paymentsTest: boolean;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string | undefined;
  /** The time the cron's last run is measured from (tests move it). */
  now?: Date;
}

/** The buckets the migrations make, and whether each is public (competition images) or private (winners' photos). */
export const EXPECTED_BUCKETS: Record<string, { public: boolean }> = {
  [COMPETITION_IMAGE_BUCKET]: { public: true },
  [WINNER_PHOTO_BUCKET]: { public: false },
};

/** The row-level policies the migrations put on Storage objects: admins write both buckets, nobody else. */
export const EXPECTED_STORAGE_POLICIES = [
  "competition images: admins add",
  "competition images: admins read",
  "competition images: admins remove",
  "competition images: admins replace",
  "winner photos: admins add",
  "winner photos: admins read",
  "winner photos: admins remove",
  "winner photos: admins replace",
];

/** How recent the cron's last run must be: the health check and the alerts use the same five minutes. */
const CRON_STALE_MS = 5 * 60_000;

/** The address the probes below use: a reserved domain (RFC 2606), so nothing the auth server sends reaches anyone. */
const PROBE_DOMAIN = "example.com";

type KeyKind = "publishable" | "secret" | "legacy_anon" | "legacy_service_role" | "unknown";

/** What a Supabase API key is: the new `sb_publishable_`/`sb_secret_` keys, or a legacy JWT by its role claim. */
export function keyKind(key: string): KeyKind {
  if (key.startsWith("sb_publishable_")) return "publishable";
  if (key.startsWith("sb_secret_")) return "secret";
  const parts = key.split(".");
  if (parts.length !== 3) return "unknown";
  try {
    const claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as { role?: unknown };
    if (claims.role === "anon") return "legacy_anon";
    if (claims.role === "service_role") return "legacy_service_role";
  } catch {
    // Not a JWT after all.
  }
  return "unknown";
}

const KEY_KIND_NAMES: Record<KeyKind, string> = {
  publishable: "a publishable key (sb_publishable_…)",
  secret: "a secret key (sb_secret_…)",
  legacy_anon: "the legacy anon JWT",
  legacy_service_role: "the legacy service_role JWT",
  unknown: "not a Supabase API key",
};

/** The secret-key client for the project being checked (not necessarily the one this server runs on). */
const adminClient = (base: string, secretKey: string) =>
  createClient<Database>(base, secretKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });

const result = (code: CheckCode, verdict: Verdict, message: string): CheckResult => ({ code, verdict, message });

/** An answer of the auth server, or the reason there was none (unreachable), as a sentence. */
async function call(url: string, init: RequestInit): Promise<Response | string> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(10_000), cache: "no-store" });
  } catch (e) {
    return `${new URL(url).origin} did not answer (${e instanceof Error ? e.message : String(e)})`;
  }
}

function checkKeyKind(code: CheckCode, key: string | undefined, variable: string, wanted: KeyKind): CheckResult | null {
  if (!key) return result(code, "fail", `${variable} is not set.`);
  const kind = keyKind(key);
  if (kind === wanted) return null;
  const advice =
    kind === "legacy_anon" || kind === "legacy_service_role"
      ? " The site takes the new API keys only: copy them from the project's Settings → API Keys."
      : "";
  return result(code, "fail", `${variable} is ${KEY_KIND_NAMES[kind]}, not ${KEY_KIND_NAMES[wanted]}.${advice}`);
}

async function checkPublishableKey(input: ProductionCheckInput, base: string): Promise<CheckResult> {
  const kind = checkKeyKind(
    "publishable_key",
    input.publishableKey,
    "NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY",
    "publishable",
  );
  if (kind) return kind;
  const answer = await call(`${base}/auth/v1/settings`, { headers: { apikey: input.publishableKey! } });
  if (typeof answer === "string") return result("publishable_key", "fail", answer);
  return answer.ok
    ? result("publishable_key", "pass", "The publishable key is accepted by the project.")
    : result("publishable_key", "fail", `The project refuses the publishable key (HTTP ${answer.status}).`);
}

async function checkSecretKey(input: ProductionCheckInput, base: string): Promise<CheckResult> {
  const kind = checkKeyKind("secret_key", input.secretKey, "SUPABASE_SECRET_KEY", "secret");
  if (kind) return kind;
  // Only a secret key may list users: a publishable key, or one of another project, is refused.
  const answer = await call(`${base}/auth/v1/admin/users?per_page=1`, {
    headers: { apikey: input.secretKey!, authorization: `Bearer ${input.secretKey}` },
  });
  if (typeof answer === "string") return result("secret_key", "fail", answer);
  return answer.ok
    ? result("secret_key", "pass", "The secret key is accepted by the project with admin rights.")
    : result("secret_key", "fail", `The project refuses the secret key (HTTP ${answer.status}).`);
}

const catalogueSchema = z.object({
  migrations: z.array(z.string()).nullable(),
  storage_policies: z.array(z.string()),
  last_cron_run: z.object({ started_at: z.string(), ok: z.boolean() }).nullable(),
});
type Catalogue = z.infer<typeof catalogueSchema>;

function checkMigrations(input: ProductionCheckInput, catalogue: Catalogue | string): CheckResult[] {
  if (typeof catalogue === "string")
    return [
      result("migrations", "fail", catalogue),
      result("demo_data", "fail", "Not known: the migrations could not be read."),
    ];
  if (catalogue.migrations === null)
    return [
      result(
        "migrations",
        "fail",
        "The project has no supabase_migrations.schema_migrations: apply the schema with `supabase db push`.",
      ),
      result("demo_data", "pass", "No demo data recorded."),
    ];
  const applied = new Set(catalogue.migrations);
  const missing = input.repositoryMigrations.filter((version) => !applied.has(version));
  const known = new Set(input.repositoryMigrations);
  const unknown = catalogue.migrations.filter((version) => version !== "seed" && !known.has(version));
  const problems = [
    missing.length ? `${missing.length} not applied (${missing.join(", ")}): run \`supabase db push\`` : null,
    unknown.length
      ? `${unknown.length} applied that the repository does not have (${unknown.join(", ")}): deploy the code they came with, or repair the history`
      : null,
  ].filter(Boolean);
  // The embedded backend records its demo seed as version "seed"; a production project must never have it.
  const demo = applied.has("seed")
    ? result("demo_data", "fail", "The demo data (supabase/seed.sql) is applied: its accounts have public passwords.")
    : result("demo_data", "pass", "No demo data recorded.");
  return [
    problems.length
      ? result("migrations", "fail", `Migrations: ${problems.join("; ")}.`)
      : result("migrations", "pass", `All ${input.repositoryMigrations.length} migrations are applied, and no other.`),
    demo,
  ];
}

function checkStoragePolicies(catalogue: Catalogue | string): CheckResult {
  if (typeof catalogue === "string") return result("storage_policies", "fail", catalogue);
  const present = new Set(catalogue.storage_policies);
  const missing = EXPECTED_STORAGE_POLICIES.filter((name) => !present.has(name));
  return missing.length
    ? result("storage_policies", "fail", `Storage policies missing: ${missing.map((n) => `"${n}"`).join(", ")}.`)
    : result("storage_policies", "pass", "Every Storage policy the migrations make is present.");
}

async function checkBuckets(input: ProductionCheckInput, base: string): Promise<CheckResult> {
  const answer = await call(`${base}/storage/v1/bucket`, {
    headers: { apikey: input.secretKey!, authorization: `Bearer ${input.secretKey}` },
  });
  if (typeof answer === "string") return result("storage_buckets", "fail", answer);
  if (!answer.ok) return result("storage_buckets", "fail", `Storage refused to list buckets (HTTP ${answer.status}).`);
  const buckets = z.array(z.object({ id: z.string(), public: z.boolean() })).parse(await answer.json());
  const problems = Object.entries(EXPECTED_BUCKETS).flatMap(([id, wanted]) => {
    const bucket = buckets.find((b) => b.id === id);
    if (!bucket) return [`"${id}" is missing`];
    if (bucket.public !== wanted.public) return [`"${id}" should be ${wanted.public ? "public" : "private"}`];
    return [];
  });
  return problems.length
    ? result("storage_buckets", "fail", `Storage buckets: ${problems.join("; ")} (the migrations make them).`)
    : result("storage_buckets", "pass", "Both Storage buckets are present, public and private as they should be.");
}

const settingsSchema = z.object({
  disable_signup: z.boolean(),
  mailer_autoconfirm: z.boolean(),
  external: z.object({ email: z.boolean() }).loose(),
});

async function checkSignupSettings(input: ProductionCheckInput, base: string): Promise<CheckResult> {
  const answer = await call(`${base}/auth/v1/settings`, { headers: { apikey: input.publishableKey! } });
  if (typeof answer === "string") return result("auth_signup", "fail", answer);
  if (!answer.ok) return result("auth_signup", "fail", `The auth settings could not be read (HTTP ${answer.status}).`);
  const settings = settingsSchema.parse(await answer.json());
  const problems = [
    settings.external.email ? null : "e-mail sign-in is off",
    settings.disable_signup ? "sign-ups are off" : null,
    settings.mailer_autoconfirm === input.emailConfirmations
      ? input.emailConfirmations
        ? "new accounts are not asked to confirm their e-mail address"
        : "new accounts must confirm their e-mail address, which supabase/config.toml turns off"
      : null,
  ].filter(Boolean);
  return problems.length
    ? result("auth_signup", "fail", `Auth settings: ${problems.join("; ")} (apply supabase/config.toml).`)
    : result(
        "auth_signup",
        "pass",
        `E-mail sign-up is on, ${input.emailConfirmations ? "with" : "without"} e-mail confirmation as supabase/config.toml sets.`,
      );
}

/**
 * The password policy is not in the public settings, so it is tried: a sign-up with a password the policy refuses
 * (too short; or long enough with no capital or digit). A project that keeps the policy answers weak_password
 * before any account is made; one that does not goes on, and the app's sign-up trigger refuses the probe (it has
 * no date of birth), so no account is made either way.
 */
async function checkPasswordPolicy(input: ProductionCheckInput, base: string): Promise<CheckResult> {
  const probes = { length: "Ab1cdef", characters: "abcdefghijkl" } as const;
  const lax: string[] = [];
  for (const [reason, password] of Object.entries(probes)) {
    const answer = await call(`${base}/auth/v1/signup`, {
      method: "POST",
      headers: { apikey: input.publishableKey!, "content-type": "application/json" },
      body: JSON.stringify({ email: `go-live-check-${crypto.randomUUID()}@${PROBE_DOMAIN}`, password }),
    });
    if (typeof answer === "string") return result("auth_password_policy", "fail", answer);
    const body = (await answer.json().catch(() => ({}))) as {
      error_code?: string;
      weak_password?: { reasons?: string[] };
    };
    if (body.error_code !== "weak_password" || !body.weak_password?.reasons?.includes(reason))
      lax.push(reason === "length" ? "7 characters" : "no capital or digit");
  }
  return lax.length
    ? result(
        "auth_password_policy",
        "fail",
        `The auth server accepts weak passwords (${lax.join("; ")}): set at least 8 characters with lower and upper case letters and digits (supabase/config.toml).`,
      )
    : result(
        "auth_password_policy",
        "pass",
        "The auth server refuses passwords under 8 characters or without mixed case and digits.",
      );
}

/**
 * Whether the auth server's links may lead back to the site: a link is made for a probe account with the site's
 * /auth/confirm as its redirect; a project that does not allow it puts its own site URL there instead. The probe
 * account is deleted at once (it is never confirmed and nothing is sent).
 */
async function checkRedirect(input: ProductionCheckInput, base: string): Promise<CheckResult> {
  if (!input.siteUrl) return result("auth_redirect", "fail", "SITE_URL is not set.");
  const wanted = `${input.siteUrl}/auth/confirm`;
  const admin = adminClient(base, input.secretKey!);
  const { data, error } = await admin.auth.admin.generateLink({
    type: "signup",
    email: `go-live-check-${crypto.randomUUID()}@${PROBE_DOMAIN}`,
    password: `Aa1-${crypto.randomUUID()}`,
    options: { redirectTo: wanted, data: { name: "Go-live check", date_of_birth: "1970-01-01" } },
  });
  if (error) return result("auth_redirect", "fail", `A link could not be made to try the redirect (${error.message}).`);
  await admin.auth.admin.deleteUser(data.user.id);
  return data.properties.redirect_to === wanted
    ? result("auth_redirect", "pass", `The auth server's links may lead to ${wanted}.`)
    : result(
        "auth_redirect",
        "fail",
        `The auth server will not send people to ${wanted} (it answered ${data.properties.redirect_to}): add it to the redirect URLs and set the site URL (supabase/config.toml).`,
      );
}

function checkClientAddress(input: ProductionCheckInput): CheckResult {
  if (input.clientAddressArrived === null)
    return result(
      "client_address",
      "fail",
      `Not known: the site did not answer at ${input.siteUrl ?? "SITE_URL"}, so whether ${input.clientAddressHeader} arrives was not seen.`,
    );
  return input.clientAddressArrived
    ? result("client_address", "pass", `The visitor's address arrives in ${input.clientAddressHeader}.`)
    : result(
        "client_address",
        "fail",
        `Requests reach the site without ${input.clientAddressHeader}: every visitor would share one set of limits. Name the header your proxy writes in CLIENT_ADDRESS_HEADER.`,
      );
}

function checkCronSecret(input: ProductionCheckInput): CheckResult {
  if (!input.cronSecret)
    return result("cron_secret", "fail", "CRON_SECRET is not set: the scheduled job cannot call the site.");
  if (input.cronSecret === EMBEDDED_CRON_SECRET)
    return result("cron_secret", "fail", "CRON_SECRET is the published development secret: choose a random one.");
  if (input.cronSecret.length < 16) return result("cron_secret", "fail", "CRON_SECRET is shorter than 16 characters.");
  return result("cron_secret", "pass", "CRON_SECRET is set.");
}

function checkCronRecent(input: ProductionCheckInput, catalogue: Catalogue | string): CheckResult {
  if (typeof catalogue === "string") return result("cron_recent", "fail", catalogue);
  const last = catalogue.last_cron_run;
  if (!last) return result("cron_recent", "fail", "The scheduled job (/api/cron/draws) has never run.");
  const age = (input.now ?? new Date()).getTime() - new Date(last.started_at).getTime();
  if (age > CRON_STALE_MS)
    return result(
      "cron_recent",
      "fail",
      `The scheduled job last ran ${Math.round(age / 60_000)} minutes ago: it must run every minute (vercel.json, or another scheduler with CRON_SECRET).`,
    );
  return last.ok
    ? result("cron_recent", "pass", "The scheduled job ran in the last five minutes.")
    : result("cron_recent", "fail", "The scheduled job's last run failed: see /admin/system.");
}

const stripeMode = (key: string) =>
  /^(?:sk|rk)_live_/.test(key) ? "live" : /^(?:sk|rk)_test_/.test(key) ? "test" : null;

function checkStripeKeys(input: ProductionCheckInput): CheckResult {
  if (input.paymentsTest)
    return result(
      "stripe_keys",
      "warn",
      "PAYMENTS=test: the test checkout credits without payment (a demo, not a real site).",
    );
  if (!input.stripeSecretKey || !input.stripeWebhookSecret)
    return result(
      "stripe_keys",
      "fail",
      "STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must both be set (or PAYMENTS=test).",
    );
  const mode = stripeMode(input.stripeSecretKey);
  if (!mode) return result("stripe_keys", "fail", "STRIPE_SECRET_KEY is not a Stripe secret key (sk_… or rk_…).");
  if (!input.stripeWebhookSecret.startsWith("whsec_"))
    return result("stripe_keys", "fail", "STRIPE_WEBHOOK_SECRET is not a webhook signing secret (whsec_…).");
  return mode === "live"
    ? result("stripe_keys", "pass", "Stripe's live secret key and a signing secret are set.")
    : result("stripe_keys", "warn", "STRIPE_SECRET_KEY is a test-mode key: no real payment is taken.");
}

/**
 * The signing secret is tried as Stripe would use it: an event the site ignores is signed with STRIPE_WEBHOOK_SECRET
 * (Stripe's own test helper) and posted to the site's webhook; the site accepts it only if its secret is the same.
 */
async function checkStripeWebhook(input: ProductionCheckInput): Promise<CheckResult> {
  if (input.paymentsTest) return result("stripe_webhook", "warn", "PAYMENTS=test: no Stripe webhook to try.");
  if (!input.stripeWebhookSecret || !input.siteUrl)
    return result("stripe_webhook", "fail", "STRIPE_WEBHOOK_SECRET and SITE_URL are needed to try the webhook.");
  const payload = JSON.stringify({
    id: `evt_go_live_check_${Date.now()}`,
    object: "event",
    type: "go_live.check",
    data: { object: {} },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: input.stripeWebhookSecret });
  const url = `${input.siteUrl}/api/webhooks/stripe`;
  const answer = await call(url, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
  if (typeof answer === "string") return result("stripe_webhook", "fail", answer);
  return answer.ok
    ? result("stripe_webhook", "pass", `${url} accepts events signed with STRIPE_WEBHOOK_SECRET.`)
    : result(
        "stripe_webhook",
        "fail",
        `${url} refused an event signed with STRIPE_WEBHOOK_SECRET (HTTP ${answer.status}): the site's secret and this one differ, or the site has no Stripe keys.`,
      );
}

function checkMail(input: ProductionCheckInput): CheckResult {
  if (!input.smtpUrl)
    return result("mail", "fail", "SMTP_URL is not set: the site's own mail (receipts, alerts, draws) is never sent.");
  if (!input.mailFrom) return result("mail", "fail", "MAIL_FROM is not set: mail would go from a made-up address.");
  return result("mail", "pass", "SMTP_URL and MAIL_FROM are set.");
}

async function readCatalogue(input: ProductionCheckInput, base: string): Promise<Catalogue | string> {
  const admin = adminClient(base, input.secretKey!);
  try {
    return catalogueSchema.parse(await callRpcWith(admin, "go_live_catalogue", {}, z.unknown()));
  } catch (e) {
    return `The project's schema could not be read (${e instanceof Error ? e.message : String(e)}): are the migrations applied?`;
  }
}

/** The checks that read the project with the secret key. */
const SECRET_KEY_CODES = [
  "migrations",
  "demo_data",
  "storage_buckets",
  "storage_policies",
  "auth_redirect",
  "cron_recent",
] as const satisfies CheckCode[];
/** The checks that need the project at all. */
const REMOTE_CODES = [
  "publishable_key",
  "secret_key",
  "auth_signup",
  "auth_password_policy",
  ...SECRET_KEY_CODES,
] as const satisfies CheckCode[];

/** Every check, in CHECK_CODES' order. */
export async function runProductionCheck(input: ProductionCheckInput): Promise<CheckResult[]> {
  const base = input.supabaseUrl?.replace(/\/+$/, "");
  const local = [checkClientAddress(input), checkCronSecret(input), checkStripeKeys(input), checkMail(input)];
  const webhook = await checkStripeWebhook(input);
  if (!base)
    return sortByCode([
      ...local,
      webhook,
      ...REMOTE_CODES.map((code) => result(code, "fail", "NEXT_PUBLIC_SUPABASE_URL is not set.")),
    ]);
  const [publishable, secret] = await Promise.all([checkPublishableKey(input, base), checkSecretKey(input, base)]);
  const results = [publishable, secret, ...local, webhook];
  results.push(
    publishable.verdict === "pass"
      ? await checkSignupSettings(input, base)
      : result("auth_signup", "fail", "Not checked: the publishable key is not accepted."),
    publishable.verdict === "pass"
      ? await checkPasswordPolicy(input, base)
      : result("auth_password_policy", "fail", "Not checked: the publishable key is not accepted."),
  );
  if (secret.verdict !== "pass") {
    for (const code of SECRET_KEY_CODES)
      results.push(result(code, "fail", "Not checked: the secret key is not accepted."));
    return sortByCode(results);
  }
  const catalogue = await readCatalogue(input, base);
  results.push(
    ...checkMigrations(input, catalogue),
    checkStoragePolicies(catalogue),
    await checkBuckets(input, base),
    await checkRedirect(input, base),
    checkCronRecent(input, catalogue),
  );
  return sortByCode(results);
}

function sortByCode(results: CheckResult[]): CheckResult[] {
  return CHECK_CODES.map((code) => results.find((r) => r.code === code)!);
}

/** The overall verdict: the worst of the checks'. */
export function overallVerdict(results: CheckResult[]): Verdict {
  if (results.some((r) => r.verdict === "fail")) return "fail";
  return results.some((r) => r.verdict === "warn") ? "warn" : "pass";
}

/** What the repository expects of the project: its migrations, and config.toml's e-mail confirmation setting. */
export async function repositoryExpectations(
  root = process.cwd(),
): Promise<Pick<ProductionCheckInput, "repositoryMigrations" | "emailConfirmations">> {
  const files = await readdir(path.join(root, "supabase", "migrations"));
  const config = readAuthConfig(await readFile(path.join(root, "supabase", "config.toml"), "utf8"));
  return {
    repositoryMigrations: files
      .filter((file) => file.endsWith(".sql"))
      .map((file) => file.split("_")[0])
      .sort(),
    emailConfirmations: config.email.enable_confirmations,
  };
}

/** Whether a request to the site came with the visitor-address header the site counts limits by. */
export const clientAddressArrived = (headers: Headers, header: string): boolean => Boolean(headers.get(header)?.trim());
