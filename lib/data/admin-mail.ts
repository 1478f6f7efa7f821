import "server-only";
import { z } from "zod";
import { ENUM_VALUES, type EnumValue } from "@/lib/labels";
import { callRpc } from "./server-rpc";

// The admin mail screen (supabase/migrations/*_admin_mail.sql): preview and send to a segment, the
// campaigns sent and the outbox. Who a segment reaches is decided in SQL (consent, breaks, exclusion,
// closure, approval and age); these only parse what it answers.

export const MAIL_KINDS = ENUM_VALUES.mail_kind;
export type MailKind = EnumValue<"mail_kind">;
export const MAIL_SEGMENTS = ENUM_VALUES.mail_segment;
export type MailSegment = EnumValue<"mail_segment">;
export const MAIL_STATUSES = ENUM_VALUES.mail_status;
export type MailStatus = EnumValue<"mail_status">;

const count = z.number().int().nonnegative();
const competitionRef = z.object({ id: z.string().uuid(), title: z.string() });

const previewSchema = z.object({
  kind: z.enum(MAIL_KINDS),
  segment: z.enum(MAIL_SEGMENTS),
  competition: competitionRef.nullable(),
  /** Everyone the segment names now. */
  members: count,
  /** Who the mail reaches: every member for a service notice; for marketing, without those held back. */
  recipients: count,
  held_back: z.object({ no_consent: count, protected: count }),
  subject: z.string(),
  body_text: z.string(),
  /** The recipient the message is rendered for (the first by name), or null when nobody gets it. */
  sample: z.object({ name: z.string(), email: z.string() }).nullable(),
  rendered: z.string(),
});
export type MailPreview = z.infer<typeof previewSchema>;

const campaignSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(MAIL_KINDS),
  segment: z.enum(MAIL_SEGMENTS),
  competition: competitionRef.nullable(),
  subject: z.string(),
  body_text: z.string(),
  recipients: count,
  queued: count,
  sent: count,
  failed: count,
  sent_by: z.object({ id: z.string().uuid(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type MailCampaign = z.infer<typeof campaignSchema>;

const outboxRowSchema = z.object({
  id: z.number().int(),
  to_email: z.string(),
  to_user: z.string().uuid().nullable(),
  to_name: z.string().nullable(),
  kind: z.string(),
  subject: z.string(),
  status: z.enum(MAIL_STATUSES),
  transport: z.enum(ENUM_VALUES.mail_transport).nullable(),
  attempts: count,
  error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  campaign_id: z.string().uuid().nullable(),
});
export type OutboxRow = z.infer<typeof outboxRowSchema>;

const outboxPageSchema = z.object({
  rows: z.array(outboxRowSchema),
  /** The cursor of the next (older) page, or null on the oldest. */
  next_before: z.number().int().nullable(),
  /** The campaign filtered by, or null (none asked for, or unknown). */
  campaign: campaignSchema.nullable(),
});
export type OutboxPage = z.infer<typeof outboxPageSchema>;

export type MailDraft = {
  kind: MailKind;
  segment: MailSegment;
  competitionId: string | null;
  subject: string;
  body: string;
};

const draftArgs = (draft: MailDraft) => ({
  p_kind: draft.kind,
  p_segment: draft.segment,
  p_competition_id: draft.segment === "competition_entrants" ? draft.competitionId : null,
  p_subject: draft.subject,
  p_body: draft.body,
});

/** Who the draft reaches now and the message as they get it; sends nothing (admin_preview_mail). */
export const previewMail = (draft: MailDraft) => callRpc("admin_preview_mail", draftArgs(draft), previewSchema);

/** Queues the draft for every recipient now (admin_send_mail); the same requestId never sends twice. */
export const sendMail = (draft: MailDraft, requestId: string) =>
  callRpc(
    "admin_send_mail",
    { ...draftArgs(draft), p_request_id: requestId },
    campaignSchema.extend({ already_sent: z.boolean() }),
  );

/** The latest campaigns with their outbox rows counted by status. */
export const listMailCampaigns = (limit = 20) =>
  callRpc("admin_list_mail_campaigns", { p_limit: limit }, z.array(campaignSchema));

/** One page of the outbox, newest first, optionally one campaign's and one status's rows. */
export const listOutbox = (filter: {
  campaignId: string | null;
  status: MailStatus | null;
  before: number | null;
  limit: number;
}) =>
  callRpc(
    "admin_list_mail_outbox",
    { p_campaign_id: filter.campaignId, p_status: filter.status, p_before: filter.before, p_limit: filter.limit },
    outboxPageSchema,
  );
