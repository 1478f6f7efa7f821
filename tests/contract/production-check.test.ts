// The go-live check (lib/operations/production-check.ts) against one embedded backend set up as a hosted project
// should be (the migrations without the demo seed, the site's auth settings), then made wrong on purpose one
// thing at a time, and put right again: each check must pass on the good project and fail, with its own code, on
// the bad one. The site's Stripe webhook is its real handler, served by a stand-in site on a free port.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EMBEDDED_CRON_SECRET } from "@/lib/env";
import {
  CHECK_CODES,
  clientAddressArrived,
  keyKind,
  overallVerdict,
  repositoryExpectations,
  runProductionCheck,
  type CheckCode,
  type CheckResult,
  type ProductionCheckInput,
} from "@/lib/operations/production-check";
import type { StripeApi } from "@/lib/payments/stripe";
import { handleStripeWebhook } from "@/lib/payments/webhook";
import { startEmbeddedServer } from "@/supabase/embedded";
import { freshDb } from "../db/support";
import { adminClient, client, PUBLISHABLE_KEY, SECRET_KEY } from "./helpers";
import { NO_RATE_LIMITS } from "@labcash/embedded-supabase/rate-limit";
import type { EmbeddedServer, EmbeddedServerOptions } from "@labcash/embedded-supabase/server";

const WEBHOOK_SECRET = "whsec_go_live_check_site_secret";

let db: PGlite;
let project: EmbeddedServer;
let site: Server;
let siteUrl: string;
let expectations: Awaited<ReturnType<typeof repositoryExpectations>>;

/** A legacy Supabase key: a JWT whose payload names the role (the signature is not read). */
const legacyKey = (role: string) =>
  ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", Buffer.from(JSON.stringify({ role })).toString("base64url"), "c2ln"].join(
    ".",
  );

/** The embedded backend on the shared database with the site's auth settings, and `options` changed. */
const startProject = (options: EmbeddedServerOptions = {}) =>
  startEmbeddedServer({ db, port: 0, rateLimits: NO_RATE_LIMITS, siteUrl, ...options });

beforeAll(async () => {
  // The site first: the auth server's site URL is its origin.
  const noStripeCalls = new Proxy({} as StripeApi, {
    get() {
      throw new Error("the go-live check's event must not reach Stripe");
    },
  });
  site = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/api/webhooks/stripe") {
        res.writeHead(404).end();
        return;
      }
      void handleStripeWebhook(
        { client: adminClient(project), api: noStripeCalls, secret: WEBHOOK_SECRET },
        Buffer.concat(chunks).toString("utf8"),
        req.headers["stripe-signature"]?.toString() ?? null,
      ).then((answer) =>
        res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body)),
      );
    });
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  db = (await freshDb({ seed: false })).pg;
  project = await startProject();
  expectations = await repositoryExpectations();
});

afterAll(async () => {
  await project?.close();
  await db?.close();
  await new Promise((resolve) => site?.close(resolve));
});

beforeEach(async () => {
  // The scheduled job ran a minute ago, as every minute on a live site.
  await db.query("delete from public.cron_runs");
  await db.query(
    "insert into public.cron_runs (job, started_at, ok, result) values ('draws', now() - interval '1 minute', true, '{}')",
  );
});

/** Everything set as the site needs it. */
function goodInput(): ProductionCheckInput {
  return {
    supabaseUrl: project.url,
    publishableKey: PUBLISHABLE_KEY,
    secretKey: SECRET_KEY,
    siteUrl,
    cronSecret: "a-random-cron-secret-0123456789",
    ...expectations,
    clientAddressArrived: true,
    clientAddressHeader: "x-real-ip",
    paymentsTest: false,
    stripeSecretKey: "sk_live_goLiveCheck",
    stripeWebhookSecret: WEBHOOK_SECRET,
    smtpUrl: "smtps://user:pass@smtp.example.com:465",
    mailFrom: "LabCash <no-reply@labcash.example>",
  };
}

async function check(changes: Partial<ProductionCheckInput> = {}): Promise<Record<CheckCode, CheckResult>> {
  const results = await runProductionCheck({ ...goodInput(), ...changes });
  expect(results.map((r) => r.code)).toEqual([...CHECK_CODES]);
  return Object.fromEntries(results.map((r) => [r.code, r])) as Record<CheckCode, CheckResult>;
}

/** Only `code` fails (a wrong setting is named by its own check, not by every check after it). */
async function expectOnlyFailure(code: CheckCode, changes: Partial<ProductionCheckInput> = {}): Promise<string> {
  const results = await check(changes);
  expect(
    Object.values(results)
      .filter((r) => r.verdict !== "pass")
      .map((r) => r.code),
  ).toEqual([code]);
  expect(results[code].verdict).toBe("fail");
  return results[code].message;
}

describe("the go-live check on a project set up as the README says", () => {
  it("passes every check", async () => {
    const results = await runProductionCheck(goodInput());
    expect(results.filter((r) => r.verdict !== "pass")).toEqual([]);
    expect(overallVerdict(results)).toBe("pass");
  });

  it("reads the project through a function only the secret key may call", async () => {
    const { error } = await client(project).rpc("go_live_catalogue");
    expect(error?.code).toBe("42501");
    const { data } = await adminClient(project).rpc("go_live_catalogue");
    expect(data).toMatchObject({ migrations: expectations.repositoryMigrations });
  });

  it("reads the repository's migrations and config.toml's e-mail confirmation", () => {
    expect(expectations.repositoryMigrations.length).toBeGreaterThan(100);
    expect(expectations.repositoryMigrations).toEqual([...expectations.repositoryMigrations].sort());
    expect(expectations.emailConfirmations).toBe(false);
  });
});

describe("keys", () => {
  it("tells the kinds of key apart, legacy JWTs included", () => {
    expect(keyKind(PUBLISHABLE_KEY)).toBe("publishable");
    expect(keyKind(SECRET_KEY)).toBe("secret");
    expect(keyKind(legacyKey("anon"))).toBe("legacy_anon");
    expect(keyKind(legacyKey("service_role"))).toBe("legacy_service_role");
    expect(keyKind("not-a-key")).toBe("unknown");
  });

  it("fails a publishable key of the wrong kind or another project", async () => {
    expect((await check({ publishableKey: SECRET_KEY })).publishable_key.message).toMatch(/is a secret key/);
    expect((await check({ publishableKey: legacyKey("anon") })).publishable_key.message).toMatch(
      /legacy anon JWT.*new API keys/,
    );
    const other = await check({ publishableKey: "sb_publishable_AnotherProject000000000000" });
    expect(other.publishable_key).toMatchObject({ verdict: "fail", message: expect.stringMatching(/refuses/) });
    // What needs the key is not checked, and says why.
    expect(other.auth_signup.message).toMatch(/publishable key is not accepted/);
  });

  it("fails a secret key of the wrong kind or another project", async () => {
    expect((await check({ secretKey: PUBLISHABLE_KEY })).secret_key.message).toMatch(/is a publishable key/);
    expect((await check({ secretKey: legacyKey("service_role") })).secret_key.message).toMatch(
      /legacy service_role JWT/,
    );
    const other = await check({ secretKey: "sb_secret_AnotherProject00000000000000000" });
    expect(other.secret_key).toMatchObject({ verdict: "fail", message: expect.stringMatching(/refuses/) });
    expect(other.migrations.message).toMatch(/secret key is not accepted/);
  });

  it("fails without a project at all", async () => {
    const results = await check({ supabaseUrl: undefined });
    expect(results.migrations.message).toMatch(/NEXT_PUBLIC_SUPABASE_URL is not set/);
    expect(results.mail.verdict).toBe("pass");
  });
});

describe("the database", () => {
  it("fails a migration not applied, naming it", async () => {
    const last = expectations.repositoryMigrations.at(-1)!;
    const { rows } = await db.query<{ name: string }>(
      "delete from supabase_migrations.schema_migrations where version = $1 returning name",
      [last],
    );
    try {
      expect(await expectOnlyFailure("migrations")).toMatch(
        new RegExp(`1 not applied \\(${last}\\).*supabase db push`),
      );
    } finally {
      await db.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
        last,
        rows[0].name,
      ]);
    }
  });

  it("fails a migration the repository does not have, naming it", async () => {
    await db.query("insert into supabase_migrations.schema_migrations (version, name) values ('20990101000000', 'x')");
    try {
      expect(await expectOnlyFailure("migrations")).toMatch(
        /1 applied that the repository does not have \(20990101000000\)/,
      );
    } finally {
      await db.query("delete from supabase_migrations.schema_migrations where version = '20990101000000'");
    }
  });

  it("fails a project whose demo data was applied", async () => {
    await db.query("insert into supabase_migrations.schema_migrations (version, name) values ('seed', 'seed.sql')");
    try {
      expect(await expectOnlyFailure("demo_data")).toMatch(/seed\.sql/);
    } finally {
      await db.query("delete from supabase_migrations.schema_migrations where version = 'seed'");
    }
  });
});

describe("Storage", () => {
  it("fails a bucket that is missing or public when it must be private", async () => {
    await db.query("update storage.buckets set public = true where id = 'winner-photos'");
    try {
      expect(await expectOnlyFailure("storage_buckets")).toMatch(/"winner-photos" should be private/);
    } finally {
      await db.query("update storage.buckets set public = false where id = 'winner-photos'");
    }
    await db.query("update storage.buckets set id = 'renamed', name = 'renamed' where id = 'competition-images'");
    try {
      expect(await expectOnlyFailure("storage_buckets")).toMatch(/"competition-images" is missing/);
    } finally {
      await db.query(
        "update storage.buckets set id = 'competition-images', name = 'competition-images' where id = 'renamed'",
      );
    }
  });

  it("fails a missing Storage policy, naming it", async () => {
    await db.query('alter policy "winner photos: admins add" on storage.objects rename to "renamed"');
    try {
      expect(await expectOnlyFailure("storage_policies")).toMatch(/"winner photos: admins add"/);
    } finally {
      await db.query('alter policy "renamed" on storage.objects rename to "winner photos: admins add"');
    }
  });
});

describe("auth settings", () => {
  /** The same database behind an auth server set up otherwise. */
  async function withProject(options: EmbeddedServerOptions, run: (url: string) => Promise<void>) {
    const other = await startProject(options);
    try {
      await run(other.url);
    } finally {
      await other.close();
    }
  }

  it("fails when new accounts must confirm their address and config.toml says they need not", async () => {
    await withProject({ mailConfirmation: true }, async (url) => {
      expect(await expectOnlyFailure("auth_signup", { supabaseUrl: url })).toMatch(/must confirm their e-mail/);
    });
  });

  it("fails when config.toml asks for confirmation and the project does not", async () => {
    expect(await expectOnlyFailure("auth_signup", { emailConfirmations: true })).toMatch(/not asked to confirm/);
  });

  it("fails a weak password policy, saying which part, and leaves no account behind", async () => {
    const { rows: before } = await db.query<{ n: number }>("select count(*)::int as n from auth.users");
    await withProject({ passwordPolicy: { minLength: 6, requirements: "lower_upper_letters_digits" } }, async (url) => {
      expect(await expectOnlyFailure("auth_password_policy", { supabaseUrl: url })).toMatch(/\(7 characters\)/);
    });
    await withProject({ passwordPolicy: { minLength: 8, requirements: "" } }, async (url) => {
      expect(await expectOnlyFailure("auth_password_policy", { supabaseUrl: url })).toMatch(/\(no capital or digit\)/);
    });
    const { rows: after } = await db.query<{ n: number }>("select count(*)::int as n from auth.users");
    expect(after[0].n).toBe(before[0].n);
  });

  it("fails when the auth server's links may not lead to the site, and leaves no account behind", async () => {
    const { rows: before } = await db.query<{ n: number }>("select count(*)::int as n from auth.users");
    await withProject({ siteUrl: "https://elsewhere.example" }, async (url) => {
      expect(await expectOnlyFailure("auth_redirect", { supabaseUrl: url })).toMatch(
        new RegExp(`will not send people to ${siteUrl}/auth/confirm`),
      );
    });
    const { rows: after } = await db.query<{ n: number }>("select count(*)::int as n from auth.users");
    expect(after[0].n).toBe(before[0].n);
  });
});

describe("the site's own settings", () => {
  it("fails when the visitor-address header does not arrive, or the site was not reached", async () => {
    expect(clientAddressArrived(new Headers({ "x-real-ip": "203.0.113.9" }), "x-real-ip")).toBe(true);
    expect(clientAddressArrived(new Headers({ "x-forwarded-for": "203.0.113.9" }), "x-real-ip")).toBe(false);
    expect(await expectOnlyFailure("client_address", { clientAddressArrived: false })).toMatch(
      /without x-real-ip.*CLIENT_ADDRESS_HEADER/,
    );
    expect(await expectOnlyFailure("client_address", { clientAddressArrived: null })).toMatch(/Not known/);
  });

  it("fails a cron secret unset, published or short", async () => {
    expect(await expectOnlyFailure("cron_secret", { cronSecret: undefined })).toMatch(/not set/);
    expect(await expectOnlyFailure("cron_secret", { cronSecret: EMBEDDED_CRON_SECRET })).toMatch(/published/);
    expect(await expectOnlyFailure("cron_secret", { cronSecret: "short" })).toMatch(/shorter than 16/);
  });

  it("fails when the scheduled job has not run for five minutes, never ran, or failed", async () => {
    await db.query("update public.cron_runs set started_at = now() - interval '6 minutes'");
    expect(await expectOnlyFailure("cron_recent")).toMatch(/last ran 6 minutes ago/);
    await db.query("update public.cron_runs set started_at = now(), ok = false");
    expect(await expectOnlyFailure("cron_recent")).toMatch(/last run failed/);
    await db.query("delete from public.cron_runs");
    expect(await expectOnlyFailure("cron_recent")).toMatch(/never run/);
  });

  it("fails Stripe keys missing or malformed, and warns of test mode and test payments", async () => {
    expect(await expectOnlyFailure("stripe_keys", { stripeSecretKey: "pk_live_publishable" })).toMatch(
      /not a Stripe secret key/,
    );
    const testMode = await check({ stripeSecretKey: "sk_test_goLiveCheck" });
    expect(testMode.stripe_keys).toMatchObject({ verdict: "warn", message: expect.stringMatching(/test-mode/) });
    const demo = await check({ paymentsTest: true, stripeSecretKey: undefined, stripeWebhookSecret: undefined });
    expect([demo.stripe_keys.verdict, demo.stripe_webhook.verdict]).toEqual(["warn", "warn"]);
    expect(overallVerdict(Object.values(demo))).toBe("warn");
  });

  it("fails a webhook signing secret the site does not share", async () => {
    expect(
      await expectOnlyFailure("stripe_webhook", { stripeWebhookSecret: "whsec_another_endpoints_secret" }),
    ).toMatch(/refused an event signed with STRIPE_WEBHOOK_SECRET \(HTTP 400\)/);
  });

  it("fails mail not configured", async () => {
    expect(await expectOnlyFailure("mail", { smtpUrl: undefined })).toMatch(/SMTP_URL is not set/);
    expect(await expectOnlyFailure("mail", { mailFrom: undefined })).toMatch(/MAIL_FROM is not set/);
  });
});
