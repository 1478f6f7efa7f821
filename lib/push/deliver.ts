// Sends the web push that SQL queued with each notification (push_pending), from the cron route: the
// same shape as the mail adapter. claim_push_batch decides who gets what (opted-in kinds, breaks and
// exclusions); this only encrypts (RFC 8291), signs (VAPID, RFC 8292) and posts to each browser's
// push service, and forgets a subscription the service says is gone. Before each send the endpoint is checked
// again: on a push service (as SQL checked on save), and resolving to public addresses only, the request then
// going to the address checked (./push-network.ts). The sender never fetches anything on our own network.
import type { Agent } from "node:https";
import { sendNotification, WebPushError } from "web-push";
import { z } from "zod";
import { callRpcWith, noResult, type RpcClient } from "@/lib/data/rpc";
import { log } from "@/lib/observability/log";
import { isPushServiceEndpoint } from "@/lib/notifications/push-subscription";
import { checkedAddress, internet, type PushNetwork } from "./push-network";
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
  /** Not sent: the endpoint is not a push service's, or its name resolves to an address that is not public. */
  refused: number;
}

/** 404 and 410: the subscription no longer exists (RFC 8030 §7.3); anything else may pass. */
const GONE = new Set([404, 410]);

export async function deliverQueuedPush(
  client: RpcClient,
  keys: VapidKeys,
  /** network: how names resolve and connections are made (the tests put a push-service stand-in on it). */
  options: { limit?: number; batches?: number; network?: PushNetwork } = {},
): Promise<PushReport> {
  const network = options.network ?? internet;
  const report: PushReport = { claimed: 0, sent: 0, removed: 0, failed: 0, refused: 0 };
  // One agent per checked address for this run: its connections are reused between sends to the same service.
  const agents = new Map<string, Agent>();
  for (let batch = 0; batch < (options.batches ?? 5); batch++) {
    const rows = await callRpcWith(client, "claim_push_batch", { p_limit: options.limit ?? 100 }, claimedSchema);
    if (rows.length === 0) break;
    report.claimed += rows.length;
    for (const row of rows) {
      const target = isPushServiceEndpoint(row.endpoint)
        ? await checkedAddress(new URL(row.endpoint).hostname, network)
        : { refused: "is not a push service" };
      if ("refused" in target) {
        // Not retried and not removed: a name that resolves inside today may be a push service's again tomorrow.
        log("warn", "push_refused", {
          host: URL.canParse(row.endpoint) ? new URL(row.endpoint).host : null,
          why: target.refused,
        });
        report.refused++;
        continue;
      }
      let agent = agents.get(target.address);
      if (!agent) agents.set(target.address, (agent = network.agentTo(target.address)));
      const payload: PushPayload = { title: row.title, body: row.body, url: row.link };
      try {
        await sendNotification(
          { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
          JSON.stringify(payload),
          { vapidDetails: keys, TTL: 24 * 60 * 60, agent },
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
  for (const agent of agents.values()) agent.destroy();
  return report;
}
