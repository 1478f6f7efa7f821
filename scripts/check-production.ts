// `npm run check:production`: the go-live check (lib/operations/production-check.ts) against the project this
// environment names (the variables of .env.example, from the environment or .env.production.local and friends, as
// `npm start` reads them). Prints one line a check, then the verdict; exits 1 if any check fails. /admin/system
// shows the same report from the running site.
//
// The variables are read as they are, not through lib/env.ts's checks, so a wrong key is reported item by item
// rather than stopping the whole check.
import process from "node:process";
import nextEnv from "@next/env";
import {
  overallVerdict,
  repositoryExpectations,
  runProductionCheck,
  type Verdict,
} from "@/lib/operations/production-check";

const root = process.cwd();
nextEnv.loadEnvConfig(root, false, { info() {}, error: console.error });
const value = (name: string) => process.env[name]?.trim() || undefined;

const siteUrl = value("SITE_URL")?.replace(/\/+$/, "");
const clientAddressHeader =
  value("CLIENT_ADDRESS_HEADER")?.toLowerCase() ??
  (value("VERCEL") === "1" ? "x-vercel-forwarded-for" : "x-forwarded-for");

/** Whether the site, asked from outside as a visitor would, received the visitor-address header; null when it did not answer. */
async function clientAddressArrived(): Promise<boolean | null> {
  if (!siteUrl) return null;
  try {
    const response = await fetch(`${siteUrl}/api/go-live/client-address`, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return null;
    return ((await response.json()) as { arrived?: unknown }).arrived === true;
  } catch {
    return null;
  }
}

const results = await runProductionCheck({
  supabaseUrl: value("SUPABASE_URL") ?? value("NEXT_PUBLIC_SUPABASE_URL"),
  publishableKey: value("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY"),
  secretKey: value("SUPABASE_SECRET_KEY"),
  siteUrl,
  cronSecret: value("CRON_SECRET"),
  ...(await repositoryExpectations(root)),
  clientAddressArrived: await clientAddressArrived(),
  clientAddressHeader,
  paymentsTest: value("PAYMENTS")?.toLowerCase() === "test",
  stripeSecretKey: value("STRIPE_SECRET_KEY"),
  stripeWebhookSecret: value("STRIPE_WEBHOOK_SECRET"),
  smtpUrl: value("SMTP_URL"),
  mailFrom: value("MAIL_FROM"),
});

const LABEL: Record<Verdict, string> = { pass: "ok  ", warn: "warn", fail: "FAIL" };
for (const r of results) console.log(`${LABEL[r.verdict]}  ${r.code.padEnd(20)} ${r.message}`);
const verdict = overallVerdict(results);
console.log(
  verdict === "fail"
    ? `\nNot ready: ${results.filter((r) => r.verdict === "fail").length} of ${results.length} checks failed.`
    : verdict === "warn"
      ? "\nReady, with warnings: the site works, but not as a real-money site."
      : "\nReady: every check passed.",
);
process.exit(verdict === "fail" ? 1 : 0);
