// Delivers the mail that SQL functions queue in public.mail_outbox (entry
// receipts, win notices, approvals…). With SMTP_URL set, through nodemailer;
// otherwise the outbox is the inbox: rows are marked delivered with transport
// "outbox" and stay readable there (the embedded default, like a mail catcher).
import nodemailer from "nodemailer";
import { env as serverEnv } from "@/lib/env";

export interface QueuedMail {
  id: number;
  to_email: string;
  kind: string;
  subject: string;
  body_text: string;
}

export interface MailTransport {
  readonly name: "smtp" | "outbox";
  send(mail: QueuedMail): Promise<void>;
}

/** The part of a supabase-js client (secret key) the adapter needs. */
export interface RpcClient {
  rpc(fn: string, args?: Record<string, unknown>): PromiseLike<{ data: unknown; error: { message: string } | null }>;
}

type Env = Partial<Record<"SMTP_URL" | "MAIL_FROM", string>>;

export function mailTransport(env: Env = serverEnv()): MailTransport {
  if (!env.SMTP_URL) return { name: "outbox", send: async () => {} };
  const transporter = nodemailer.createTransport(env.SMTP_URL);
  const from = env.MAIL_FROM ?? "LabCash <no-reply@labcash.test>";
  return {
    name: "smtp",
    async send(mail) {
      await transporter.sendMail({ from, to: mail.to_email, subject: mail.subject, text: mail.body_text });
    },
  };
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
    const { data, error } = await client.rpc("claim_mail_batch", { p_limit: options.limit ?? 20 });
    if (error) throw new Error(`claim_mail_batch: ${error.message}`);
    const rows = (data ?? []) as QueuedMail[];
    if (rows.length === 0) break;
    report.claimed += rows.length;
    for (const mail of rows) {
      try {
        await transport.send(mail);
      } catch (e) {
        report.failed++;
        const marked = await client.rpc("mark_mail_failed", { p_id: mail.id, p_error: (e as Error).message ?? String(e) });
        if (marked.error) throw new Error(`mark_mail_failed: ${marked.error.message}`);
        continue;
      }
      // Sent: a failure to record it must not turn into a second delivery.
      const marked = await client.rpc("mark_mail_sent", { p_id: mail.id, p_transport: transport.name });
      if (marked.error) throw new Error(`mark_mail_sent: ${marked.error.message}`);
      report.sent++;
    }
  }
  return report;
}
