import "server-only";
import { z } from "zod";
import { callRpcWith, declared, noResult } from "./rpc";
import { callRpc } from "./server-rpc";
import { createClient } from "@supabase/supabase-js";
import { supabaseEnv } from "@/lib/env";
import type { Database } from "@/lib/supabase/database.types";

// Operations (supabase/migrations/*_operations.sql): the health check, the System page and its actions.
// What counts as overdue, failing or needing a person is decided in SQL; these parse what it answers.

// ops_check's states are words SQL works out (text, not a stored column): narrowed beside the declared reader.
const opsStates = z.object({
  cron: z.object({ state: z.enum(["ok", "waiting", "stale", "failing"]) }),
  mail: z.enum(["ok", "failing"]),
});

/** Gives up on a backend that does not answer: a health check must answer in a few seconds whatever happens. */
const HEALTH_TIMEOUT_MS = 3000;
const timedFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });

/** The health check's database call, through the secret key (ops_check is server only): raises alerts too. */
export async function opsCheck() {
  const { url, secretKey } = supabaseEnv();
  if (!secretKey) throw new Error("SUPABASE_SECRET_KEY must be set on the server");
  const client = createClient<Database>(url, secretKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: timedFetch },
  });
  const ops = await callRpcWith(client, "ops_check", {}, declared("cron", "mail").with({ cron: declared("state") }));
  const states = opsStates.parse(ops);
  return { cron: { ...ops.cron, state: states.cron.state }, mail: states.mail };
}
export type OpsCheck = Awaited<ReturnType<typeof opsCheck>>;

/** Whether the auth server answers its health endpoint. */
export async function authServerUp(): Promise<boolean> {
  const { url, publishableKey } = supabaseEnv();
  try {
    const res = await timedFetch(`${url}/auth/v1/health`, { headers: { apikey: publishableKey } });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** A run of the scheduled job as the checks show it: `result` (jsonb) is what it did, keyed by what it counted. */
const cronRun = declared("id", "started_at", "finished_at", "ok", "result");

/** Super admins: the deeper check (the signed-in session; SQL refuses anyone else). */
export const deepHealth = () =>
  callRpc(
    "admin_deep_health",
    {},
    declared(
      "overdue_draws",
      "mail_queued",
      "mail_failed",
      "webhooks_waiting",
      "payments_needing_person",
      "open_alerts",
    ).with({ last_cron_run: cronRun }),
  );
export type DeepHealth = Awaited<ReturnType<typeof deepHealth>>;

/**
 * The System page (admins; it raises any new alert first), with the webhook calls refused for a bad signature per
 * hour, which a later migration added beside the overview rather than rewrite it.
 */
export async function systemOverview() {
  const [overview, webhookRefusals] = await Promise.all([
    callRpc(
      "admin_system_overview",
      {},
      declared(
        "can_act",
        "cron",
        "overdue_draws",
        "webhooks",
        "payments",
        "mail",
        "auth_refusals",
        "storage",
        "alerts",
      ).with({
        cron: declared("stale", "runs").with({ runs: cronRun }),
        overdue_draws: declared("id", "slug", "title", "draw_at", "overdue_minutes"),
        payments: declared("kind", "reference", "detail", "since").with({ player: declared("id", "name") }),
        mail: declared("queued", "failed", "failures").with({
          failures: declared("id", "to_email", "kind", "subject", "attempts", "created_at"),
        }),
        auth_refusals: declared("hour", "sign_in", "sign_in_limited", "code", "code_limited"),
        storage: declared("database_bytes", "image_count", "image_bytes"),
        alerts: declared("id", "kind", "incident", "subject", "detail", "raised_at"),
      }),
    ),
    callRpc("admin_webhook_refusals", {}, declared("hour", "provider", "refusals")),
  ]);
  return { ...overview, webhook_refusals: webhookRefusals };
}
export type SystemOverview = Awaited<ReturnType<typeof systemOverview>>;

/** The alerts no super admin has acknowledged, newest first (an empty list for other admins). */
export const openAlerts = () => callRpc("admin_open_alerts", {}, declared("id", "kind", "subject", "raised_at"));
export type OpenAlert = Awaited<ReturnType<typeof openAlerts>>[number];

export const retryMail = (id: number) => callRpc("admin_retry_mail", { p_id: id }, noResult);
export const acknowledgeAlert = (id: number) => callRpc("admin_acknowledge_alert", { p_id: id }, noResult);
export const resolvePayment = (kind: "mismatch" | "owed", reference: string, note: string) =>
  callRpc("admin_resolve_payment", { p_kind: kind, p_reference: reference, p_note: note }, noResult);
