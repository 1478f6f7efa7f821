// Sends the web push that SQL queued with each notification (push_pending), from the cron route: the
// same shape as the mail adapter. claim_push_batch decides who gets what (opted-in kinds, breaks and
// exclusions); this only encrypts (RFC 8291), signs (VAPID, RFC 8292) and posts to each browser's
// push service, and forgets a subscription the service says is gone.
import type { Agent } from "node:https";
import { sendNotification, WebPushError } from "web-push";
import { z } from "zod";
import { callRpcWith, noResult, type RpcClient } from "@/lib/data/rpc";
import type { VapidKeys } from "./vapid";

const claimedSchema = z.array(
  z.object({
    notification_id: z.coerce.number(),
    endpoint: z.string(),
    p256dh: z.string(),
    auth: z.string(),
    title: z.string(),
    body: z.string(),
    link: z.string(),
  }),
);

/** What the service worker (public/sw-push.js) shows. */
export type PushPayload = { title: string; body: string; url: string };

export interface PushReport {
  claimed: number;
  sent: number;
  removed: number;
  failed: number;
}

/** 404 and 410: the subscription no longer exists (RFC 8030 §7.3); anything else may pass. */
const GONE = new Set([404, 410]);

export async function deliverQueuedPush(
  client: RpcClient,
  keys: VapidKeys,
  /** agent: how to reach the push services (the tests trust their stand-in's certificate with one). */
  options: { limit?: number; batches?: number; agent?: Agent } = {},
): Promise<PushReport> {
  const report: PushReport = { claimed: 0, sent: 0, removed: 0, failed: 0 };
  for (let batch = 0; batch < (options.batches ?? 5); batch++) {
    const rows = await callRpcWith(client, "claim_push_batch", { p_limit: options.limit ?? 100 }, claimedSchema);
    if (rows.length === 0) break;
    report.claimed += rows.length;
    for (const row of rows) {
      const payload: PushPayload = { title: row.title, body: row.body, url: row.link };
      try {
        await sendNotification(
          { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
          JSON.stringify(payload),
          { vapidDetails: keys, TTL: 24 * 60 * 60, agent: options.agent },
        );
        report.sent++;
      } catch (e) {
        if (!(e instanceof WebPushError) || !GONE.has(e.statusCode)) {
          // Not retried: a notification is news of the moment, and it stays in the centre.
          report.failed++;
          continue;
        }
        await callRpcWith(client, "remove_push_subscription", { p_endpoint: row.endpoint }, noResult);
        report.removed++;
      }
    }
  }
  return report;
}
