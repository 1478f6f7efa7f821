"use server";

import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { composeSchema, sendSchema, type ComposeInput } from "@/lib/mail/mail-fields";
import { previewMail, sendMail, type MailPreview } from "@/lib/data/admin-mail";
import { deliverQueuedMail } from "@/lib/mail/adapter";
import { createAdminClient } from "@/lib/supabase/admin";
import { defineAction } from "./define-action";
import { ok } from "./result";
import { log } from "@/lib/observability/log";

// The admin mail screen's actions. The role is checked here and again by every SQL function;
// who a segment reaches (consent, breaks, exclusion, closure, approval, age) is decided in SQL alone.

export type PreviewedMail = { draft: ComposeInput; preview: MailPreview; requestId: string };

/** Counts the recipients and renders the message; sends nothing. The request id makes the send that follows happen once. */
export const previewMailAction = defineAction({ schema: composeSchema, role: "admin" }, async (draft) => {
  const preview = await previewMail(draft);
  return ok<PreviewedMail>({ draft, preview, requestId: randomUUID() });
});

/**
 * Queues the previewed mail for everyone the segment reaches now, then starts delivery with one batch through
 * the mail adapter (the cron's mail run delivers whatever is left), and opens the outbox on the campaign.
 */
export const sendMailAction = defineAction({ schema: sendSchema, role: "admin" }, async ({ requestId, ...draft }) => {
  const campaign = await sendMail(draft, requestId);
  if (!campaign.already_sent) {
    try {
      await deliverQueuedMail(createAdminClient(), { limit: 50, batches: 1 });
    } catch (e) {
      // The mail is queued either way; the next mail run delivers it.
      log("error", "campaign_delivery_failed", { error: e });
    }
  }
  revalidatePath("/admin/mail");
  redirect(`/admin/mail?campaign=${campaign.id}&sent=${campaign.already_sent ? "again" : "1"}#outbox`);
});
