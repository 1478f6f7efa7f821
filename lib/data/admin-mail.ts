import "server-only";
import { ENUM_VALUES, type EnumValue } from "@/lib/labels";
import { declared } from "./rpc";
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

/** What public.mail_campaign always fills; `competition` (a competition_entrants mail) and `sent_by` may be null. */
const campaign = declared(
  "id",
  "kind",
  "segment",
  "subject",
  "body_text",
  "recipients",
  "queued",
  "sent",
  "failed",
  "created_at",
).with({ competition: declared("id", "title"), sent_by: declared("id", "name") });

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

/**
 * Who the draft reaches now and the message as they get it; sends nothing (admin_preview_mail): `members` is
 * everyone the segment names now, `recipients` who the mail reaches (every member for a service notice; for
 * marketing, without those held back), `sample` the recipient it is rendered for (the first by name) or null.
 */
export const previewMail = (draft: MailDraft) =>
  callRpc(
    "admin_preview_mail",
    draftArgs(draft),
    declared("kind", "segment", "members", "recipients", "held_back", "subject", "body_text", "rendered").with({
      competition: declared("id", "title"),
      held_back: declared("no_consent", "protected"),
      sample: declared("name", "email"),
    }),
  );
export type MailPreview = Awaited<ReturnType<typeof previewMail>>;

/** Queues the draft for every recipient now (admin_send_mail); the same requestId never sends twice. */
export const sendMail = (draft: MailDraft, requestId: string) =>
  callRpc(
    "admin_send_mail",
    { ...draftArgs(draft), p_request_id: requestId },
    declared(...campaign.filled, "already_sent").with(campaign.nested),
  );

/** The latest campaigns with their outbox rows counted by status. */
export const listMailCampaigns = (limit = 20) => callRpc("admin_list_mail_campaigns", { p_limit: limit }, campaign);
export type MailCampaign = Awaited<ReturnType<typeof listMailCampaigns>>[number];

/**
 * One page of the outbox, newest first, optionally one campaign's and one status's rows; `next_before` is the
 * cursor of the next (older) page or null on the oldest, `campaign` the campaign filtered by (null: none asked
 * for, or unknown).
 */
export const listOutbox = (filter: {
  campaignId: string | null;
  status: MailStatus | null;
  before: number | null;
  limit: number;
}) =>
  callRpc(
    "admin_list_mail_outbox",
    { p_campaign_id: filter.campaignId, p_status: filter.status, p_before: filter.before, p_limit: filter.limit },
    declared("rows").with({
      rows: declared("id", "to_email", "kind", "subject", "status", "attempts", "created_at"),
      campaign,
    }),
  );
export type OutboxRow = Awaited<ReturnType<typeof listOutbox>>["rows"][number];
