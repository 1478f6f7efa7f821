import { z } from "zod";
import { DbError } from "@/lib/data/errors";
import { callRpcWith, declared, noResult, type RpcClient, type RpcOutput } from "@/lib/data/rpc";
import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { deliverQueuedMail } from "@/lib/mail/adapter";
import { deliverQueuedPush } from "@/lib/push/deliver";
import { vapidKeys } from "@/lib/push/vapid";
import { log } from "@/lib/observability/log";
import { requestIdFrom } from "@/lib/observability/request-id";
import { createAdminClient } from "@/lib/supabase/admin";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

// Vercel Cron (vercel.json) calls this with `Authorization: Bearer $CRON_SECRET`.
// It draws or closes every competition past its close time, raises any new
// player-protection flags (code of practice 1.6), raises any operations alert,
// then delivers the mail and web push those draws and alerts (and anything else) queued. Every run is
// recorded (cron_runs) with its result, which the health check and /admin/system show.
export const dynamic = "force-dynamic";

/** What one run did: the competitions drawn (each with its draw) and those closed without tickets. */
const dueDraws = declared("drawn", "closed").with({ drawn: declared("competition_id", "draw_id") });

const errorText = (e: unknown, fallback: string) => (e instanceof DbError ? e.message : fallback);

async function recordRun(
  client: RpcClient,
  startedAt: string,
  ok: boolean,
  result: Record<string, number>,
  error: string | null,
) {
  try {
    await callRpcWith(
      client,
      "record_cron_run",
      { p_job: "draws", p_started_at: startedAt, p_ok: ok, p_result: result, p_error: error },
      noResult,
    );
  } catch (e) {
    log("error", "cron_run_not_recorded", { error: e });
  }
}

async function get({ request }: RouteInput<undefined, undefined>) {
  const startedAt = new Date().toISOString();
  const requestId = requestIdFrom(request.headers);
  const supabase = createAdminClient();
  let draws: RpcOutput<"run_due_draws", typeof dueDraws>;
  try {
    draws = await callRpcWith(supabase, "run_due_draws", {}, dueDraws);
  } catch (e) {
    log("error", "cron_draws_failed", { request_id: requestId, error: e });
    const error = errorText(e, "run_due_draws failed");
    await recordRun(supabase, startedAt, false, {}, error);
    return Response.json({ error }, { status: 500 });
  }
  // The winners and the closed competitions show on the public pages at once.
  if (draws.drawn.length > 0 || draws.closed.length > 0) revalidateCompetitionPages();
  // A failure here is logged and reported, never stops the draws' mail.
  let flags: { raised: number } | { error: string };
  try {
    flags = await callRpcWith(supabase, "raise_player_flags", {}, declared("raised"));
  } catch (e) {
    log("error", "cron_flags_failed", { request_id: requestId, error: e });
    flags = { error: errorText(e, "raise_player_flags failed") };
  }
  // Referrals an entry left pending because the inviter's account was busy (supabase referral_credit migration).
  let referrals: { checked: number } | { error: string };
  try {
    referrals = await callRpcWith(supabase, "settle_referrals", {}, declared("checked"));
  } catch (e) {
    log("error", "cron_referrals_failed", { request_id: requestId, error: e });
    referrals = { error: errorText(e, "settle_referrals failed") };
  }
  // The optional morning e-mail to admins of the accounts waiting for approval (once a UK day, in SQL).
  let digests: { queued: number } | { error: string };
  try {
    digests = { queued: await callRpcWith(supabase, "queue_sign_up_digests", {}, z.number()) };
  } catch (e) {
    log("error", "cron_sign_up_digest_failed", { request_id: requestId, error: e });
    digests = { error: errorText(e, "queue_sign_up_digests failed") };
  }
  // The salts of the draw checks of days that are over: once gone, their hashes point to no address (decision 058).
  let salts: { forgotten: number } | { error: string };
  try {
    salts = { forgotten: await callRpcWith(supabase, "forget_draw_check_salts", {}, z.number()) };
  } catch (e) {
    log("error", "cron_draw_check_salts_failed", { request_id: requestId, error: e });
    salts = { error: errorText(e, "forget_draw_check_salts failed") };
  }
  // The draws above were this run's, so the check sees the job running; it alerts on what is still wrong.
  await recordRun(supabase, startedAt, true, { drawn: draws.drawn.length, closed: draws.closed.length }, null);
  let alerts: "checked" | { error: string } = "checked";
  try {
    await callRpcWith(supabase, "ops_check", {}, z.unknown());
  } catch (e) {
    log("error", "cron_ops_check_failed", { request_id: requestId, error: e });
    alerts = { error: errorText(e, "ops_check failed") };
  }
  let mail;
  try {
    mail = await deliverQueuedMail(supabase);
  } catch (e) {
    log("error", "cron_mail_failed", { request_id: requestId, error: e });
    mail = { error: (e as Error).message };
  }
  // Without VAPID keys (a deployment that set none) push is off; the notifications wait in the centre.
  const keys = vapidKeys();
  let push;
  try {
    push = keys ? await deliverQueuedPush(supabase, keys) : "off";
  } catch (e) {
    log("error", "cron_push_failed", { request_id: requestId, error: e });
    push = { error: (e as Error).message };
  }
  log("info", "cron_run", {
    request_id: requestId,
    drawn: draws.drawn.length,
    closed: draws.closed.length,
    flags,
    referrals,
    digests,
    salts,
    alerts,
    mail,
    push,
  });
  return Response.json({ ok: true, drawn: draws.drawn, closed: draws.closed, flags, alerts, mail, push });
}

export const GET = defineRoute({ kind: "json", auth: "cron" }, get);
