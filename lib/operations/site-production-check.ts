import "server-only";
import { headers } from "next/headers";
import { env } from "@/lib/env";
import { clientAddressArrived, repositoryExpectations, runProductionCheck, type CheckResult } from "./production-check";

/**
 * The go-live check as this running site has it configured (/admin/system): the same checks as `npm run
 * check:production`, with the visitor-address header read from the request that asked.
 */
export async function checkThisSite(): Promise<CheckResult[]> {
  const e = env();
  return runProductionCheck({
    supabaseUrl: e.supabase.url,
    publishableKey: e.supabase.publishableKey,
    secretKey: e.supabase.secretKey,
    siteUrl: e.SITE_URL,
    cronSecret: e.CRON_SECRET,
    ...(await repositoryExpectations()),
    clientAddressArrived: clientAddressArrived(await headers(), e.clientAddress.header),
    clientAddressHeader: e.clientAddress.header,
    paymentsTest: e.payments === "test",
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
  });
}
