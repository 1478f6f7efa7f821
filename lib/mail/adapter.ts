// Delivers the mail that SQL functions queue in public.mail_outbox (entry
// receipts, win notices, approvals…). With SMTP_URL set, through nodemailer;
// otherwise the outbox is the inbox: rows are marked delivered with transport
// "outbox" and stay readable there (the embedded default, like a mail catcher).
import nodemailer, { type Transporter } from "nodemailer";
import { z } from "zod";
import { callRpcWith, noResult, type RpcClient } from "@/lib/data/rpc";
import { env as serverEnv } from "@/lib/env";

const queuedMailSchema = z.object({
  id: z.coerce.number(),
  to_email: z.string(),
  kind: z.string(),
  subject: z.string(),
  body_text: z.string(),
  /** Marketing only: the mail's own one-click unsubscribe address (RFC 8058), null for service mail. */
  list_unsubscribe: z.string().nullable().optional(),
});
export type QueuedMail = z.infer<typeof queuedMailSchema>;

/**
 * The headers a marketing mail carries so a mail program can offer "Unsubscribe" and do it in one click
 * (RFC 2369 List-Unsubscribe, RFC 8058 List-Unsubscribe-Post: it POSTs `List-Unsubscribe=One-Click` to
 * the address, which /api/unsubscribe answers without a session). None for service mail.
 */
export function unsubscribeHeaders(mail: Pick<QueuedMail, "list_unsubscribe">): Record<string, string> {
  if (!mail.list_unsubscribe) return {};
  return {
    "List-Unsubscribe": `<${mail.list_unsubscribe}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** Sends through a nodemailer transporter (SMTP in the app; any nodemailer transport in the tests). */
export function nodemailerTransport(transporter: Transporter, from: string): MailTransport {
  return {
    name: "smtp",
    async send(mail) {
      await transporter.sendMail({
        from,
        to: mail.to_email,
        subject: mail.subject,
        text: mail.body_text,
        headers: unsubscribeHeaders(mail),
      });
    },
  };
}

export interface MailTransport {
  readonly name: "smtp" | "outbox";
  send(mail: QueuedMail): Promise<void>;
}

/** The client the adapter calls through: the secret-key client in the app, a PGlite caller in the db tests. */
export type { RpcClient };

type Env = Partial<Record<"SMTP_URL" | "MAIL_FROM", string>>;

export function mailTransport(env: Env = serverEnv()): MailTransport {
  if (!env.SMTP_URL) return { name: "outbox", send: async () => {} };
  return nodemailerTransport(
    nodemailer.createTransport(env.SMTP_URL),
    env.MAIL_FROM ?? "LabCash <no-reply@labcash.test>",
  );
}

export interface DeliveryReport {
  transport: MailTransport["name"];
  claimed: number;
  sent: number;
  failed: number;
}

export async function deliverQueuedMail(
  client: RpcClient,
  options: { transport?: MailTransport; limit?: number; batches?: number } = {},
): Promise<DeliveryReport> {
  const transport = options.transport ?? mailTransport();
  const report: DeliveryReport = { transport: transport.name, claimed: 0, sent: 0, failed: 0 };
  for (let batch = 0; batch < (options.batches ?? 5); batch++) {
    const rows = await callRpcWith(
      client,
      "claim_mail_batch",
      { p_limit: options.limit ?? 20 },
      z.array(queuedMailSchema),
    );
    if (rows.length === 0) break;
    report.claimed += rows.length;
    for (const mail of rows) {
      try {
        await transport.send(mail);
      } catch (e) {
        report.failed++;
        await callRpcWith(
          client,
          "mark_mail_failed",
          { p_id: mail.id, p_error: (e as Error).message ?? String(e) },
          noResult,
        );
        continue;
      }
      // Sent: a failure to record it must not turn into a second delivery.
      await callRpcWith(client, "mark_mail_sent", { p_id: mail.id, p_transport: transport.name }, noResult);
      report.sent++;
    }
  }
  return report;
}
