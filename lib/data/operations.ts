import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { callRpcWith, declared, noResult } from "./rpc";
import { callRpc } from "./server-rpc";
import { createClient } from "@supabase/supabase-js";
import { supabaseEnv } from "@/lib/env";
import type { Database } from "@/lib/supabase/database.types";

// Operations (supabase/migrations/*_operations.sql): the health check, the System page and its actions.
// What counts as overdue, failing or needing a person is decided in SQL; these parse what it answers.

const count = z.coerce.number().int().nonnegative();
const when = z.string();

export const opsCheckSchema = z.object({
  cron: z.object({ state: z.enum(["ok", "waiting", "stale", "failing"]), last_run_at: when.nullable() }),
  mail: z.enum(["ok", "failing"]),
});
export type OpsCheck = z.infer<typeof opsCheckSchema>;

/** Gives up on a backend that does not answer: a health check must answer in a few seconds whatever happens. */
const HEALTH_TIMEOUT_MS = 3000;
const timedFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });

/** The health check's database call, through the secret key (ops_check is server only): raises alerts too. */
export async function opsCheck(): Promise<OpsCheck> {
  const { url, secretKey } = supabaseEnv();
  if (!secretKey) throw new Error("SUPABASE_SECRET_KEY must be set on the server");
  const client = createClient<Database>(url, secretKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: timedFetch },
  });
  return callRpcWith(client, "ops_check", {}, opsCheckSchema);
}

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

const deepHealthSchema = z.object({
  overdue_draws: count,
  oldest_overdue_draw_at: when.nullable(),
  mail_queued: count,
  oldest_queued_mail_at: when.nullable(),
  mail_failed: count,
  webhooks_waiting: count,
  payments_needing_person: count,
  open_alerts: count,
  last_cron_run: z
    .object({ started_at: when, finished_at: when, ok: z.boolean(), error: z.string().nullable() })
    .passthrough()
    .nullable(),
});
export type DeepHealth = z.infer<typeof deepHealthSchema>;

/** Super admins: the deeper check (the signed-in session; SQL refuses anyone else). */
export const deepHealth = () => callRpc("admin_deep_health", {}, deepHealthSchema);

const cronRunSchema = z.object({
  id: count,
  started_at: when,
  finished_at: when,
  ok: z.boolean(),
  result: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
});

const alertSchema = z.object({
  id: count,
  kind: z.enum(ENUM_VALUES.alert_kind),
  incident: z.string(),
  subject: z.string(),
  detail: z.string(),
  raised_at: when,
  acknowledged_at: when.nullable(),
});

const overviewSchema = z.object({
  can_act: z.boolean(),
  cron: z.object({ stale: z.boolean(), runs: z.array(cronRunSchema) }),
  overdue_draws: z.array(
    z.object({
      id: z.string().uuid(),
      slug: z.string(),
      title: z.string(),
      draw_at: when,
      overdue_minutes: z.number(),
    }),
  ),
  webhooks: z.array(
    z.object({
      id: count,
      provider: z.string(),
      event_id: z.string(),
      event_type: z.string(),
      status: z.enum(ENUM_VALUES.webhook_status),
      http_status: z.number().int(),
      attempts: count,
      last_error: z.string().nullable(),
      first_seen_at: when,
      last_seen_at: when,
    }),
  ),
  payments: z.array(
    z.object({
      kind: z.enum(ENUM_VALUES.payment_issue),
      reference: z.string(),
      top_up_id: z.string().uuid().nullable(),
      amount: z.coerce.number().nullable(),
      detail: z.string(),
      since: when,
      player: z.object({ id: z.string().uuid(), name: z.string() }).nullable(),
    }),
  ),
  mail: z.object({
    queued: count,
    failed: count,
    failures: z.array(
      z.object({
        id: count,
        to_email: z.string(),
        kind: z.string(),
        subject: z.string(),
        attempts: count,
        error: z.string().nullable(),
        created_at: when,
      }),
    ),
  }),
  auth_refusals: z.array(
    z.object({ hour: when, sign_in: count, sign_in_limited: count, code: count, code_limited: count }),
  ),
  storage: z.object({ database_bytes: count, image_count: count, image_bytes: count }),
  alerts: z.array(alertSchema),
});
const webhookRefusalsSchema = z.array(z.object({ hour: when, provider: z.string(), refusals: count }));
export type SystemOverview = z.infer<typeof overviewSchema> & {
  webhook_refusals: z.infer<typeof webhookRefusalsSchema>;
};
export type OpsAlert = z.infer<typeof alertSchema>;

/**
 * The System page (admins; it raises any new alert first), with the webhook calls refused for a bad signature per
 * hour, which a later migration added beside the overview rather than rewrite it.
 */
export async function systemOverview(): Promise<SystemOverview> {
  const [overview, webhookRefusals] = await Promise.all([
    callRpc("admin_system_overview", {}, overviewSchema),
    callRpc("admin_webhook_refusals", {}, webhookRefusalsSchema),
  ]);
  return { ...overview, webhook_refusals: webhookRefusals };
}

/** The alerts no super admin has acknowledged, newest first (an empty list for other admins). */
export const openAlerts = () => callRpc("admin_open_alerts", {}, declared("id", "kind", "subject", "raised_at"));
export type OpenAlert = Awaited<ReturnType<typeof openAlerts>>[number];

export const retryMail = (id: number) => callRpc("admin_retry_mail", { p_id: id }, noResult);
export const acknowledgeAlert = (id: number) => callRpc("admin_acknowledge_alert", { p_id: id }, noResult);
export const resolvePayment = (kind: "mismatch" | "owed", reference: string, note: string) =>
  callRpc("admin_resolve_payment", { p_kind: kind, p_reference: reference, p_note: note }, noResult);
