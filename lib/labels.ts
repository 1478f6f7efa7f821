import { Constants, type Database } from "@/lib/supabase/database.types";

// Every value of every SQL enum in words, in one place. The sets themselves come
// from the database (`npm run db:types`): a value added in SQL fails the type check here until it has
// its words, and tests/unit/labels.test.ts fails if another file keeps its own copy of a set or its
// labels. Plain constants, safe for client components.

type Enums = Database["public"]["Enums"];
export type EnumName = keyof Enums;
/** One value of the SQL enum `E`. */
export type EnumValue<E extends EnumName> = Enums[E];

/** The values of each enum, in the order SQL declares them (the order filters and forms list them). */
export const ENUM_VALUES = Constants.public.Enums;

export const LABELS = {
  user_role: { user: "Player", admin: "Admin", super_admin: "Super admin" },
  approval_mode: { manual: "Manual", auto: "Automatic" },
  approval_state: { approved: "Approved", pending: "Waiting", rejected: "Rejected", deleted: "Deleted" },
  kyc_status: { none: "None", pending: "Pending", verified: "Verified", rejected: "Rejected" },
  mail_status: { queued: "Queued", sent: "Sent", failed: "Failed" },
  ledger_kind: {
    top_up: "Top-up",
    bonus: "Bonus",
    entry: "Entry",
    refund: "Refund",
    // A noun like the rest; the admin's ledger once said "Top-up reversed" (docs/decisions/008).
    top_up_reversal: "Top-up reversal",
    admin_adjustment: "Adjustment",
    spinner_prize: "Spinner prize",
    debit: "Debit",
    instant_win: "Instant win",
  },
  competition_status: {
    draft: "Draft",
    live: "Live",
    sold_out: "Sold out",
    closed: "Closed",
    drawn: "Drawn",
    cancelled: "Cancelled",
  },
  entry_kind: { paid: "Paid", postal: "Postal" },
  instant_win_kind: { credit: "Credit", spin: "A LabSpinner spin", physical: "Physical prize" },
  ticket_numbering: { in_order: "In purchase order", pick: "Players pick (or lucky dip)" },
  entry_status: { active: "Active", refunded: "Refunded", void: "Void" },
  draw_trigger: { sold_out: "Sold out", close_time: "Close time", draw_time: "Draw time" },
  prize_status: { awaiting_claim: "Awaiting claim", claimed: "Claimed", verified: "Verified", delivered: "Delivered" },
  identity_document: {
    passport: "Passport",
    driving_licence: "Driving licence",
    national_identity_card: "National identity card",
    other: "Other document",
  },
  top_up_status: {
    pending: "Pending",
    credited: "Credited",
    failed: "Failed",
    expired: "Expired",
    refused_card_cap: "Refused: card limit",
    refunded: "Refunded",
    partially_refunded: "Partly refunded",
  },
  break_kind: { break: "Break", self_exclusion: "Self-exclusion", closed: "Closure" },
  // What the player may do now, as their account and the admin's user page say it.
  protection_state: {
    active: "Playing normally",
    break: "On a break",
    self_exclusion: "Self-excluded",
    closed: "Account closed",
  },
  consent_source: {
    sign_up: "Chosen when you signed up",
    profile: "Chosen on this page",
    unsubscribe_link: "Chosen with the unsubscribe link in one of our e-mails",
    not_asked: "Set for you, because we had not asked you yet",
  },
  complaint_status: { received: "Received", acknowledged: "Acknowledged", resolved: "Resolved" },
  flag_kind: {
    limit_reached: "Monthly limit reached",
    limit_raises: "Three requests to raise the limit in 30 days",
    large_top_ups: "Top-ups over £1,000 in 24 hours",
    top_up_after_break: "Top-up of £100 or more within a day of a break ending",
  },
  flag_status: { open: "Open", reviewed: "Reviewed" },
  mail_kind: { marketing: "Marketing", service: "Service notice" },
  mail_segment: {
    all_players: "All approved players",
    competition_entrants: "Entrants of a competition",
    no_recent_entry: "Players with no entry in 30 days",
  },
  mail_transport: { smtp: "By SMTP", outbox: "Kept in the outbox (no SMTP)" },
  alert_kind: {
    draw_overdue: "Draw overdue",
    cron_stale: "Scheduled job stopped",
    webhook_failing: "Webhook failing",
    payment_needs_person: "Payment needs a person",
    webhook_refused: "Webhook calls refused",
  },
  webhook_status: { handled: "Handled", failed: "Failed", mismatch: "Mismatch" },
  payment_issue: { mismatch: "Mismatch", owed: "Owed" },
  prize_choice: { prize: "Prize chosen", cash: "Cash chosen" },
  payment_provider: { stripe: "Stripe", test: "Test payment" },
  card_funding: {
    debit: "Debit card",
    credit: "Credit card",
    prepaid: "Prepaid card",
    wallet: "Wallet",
    unknown: "Unknown",
  },
  auth_refusal: {
    sign_in: "Sign-ins refused",
    sign_in_limited: "Sign-ins limited",
    code: "Codes refused",
    code_limited: "Codes limited",
  },
  intervention_kind: {
    note: "Note",
    contacted: "Contacted the player",
    restricted: "Restricted play",
    lifted: "Lifted the restriction",
    closed: "Closed the account",
  },
} as const satisfies { [E in EnumName]: Record<EnumValue<E>, string> };

/**
 * What each approval mode means, on both screens that set it. Automatic approval checks nothing beyond what every
 * sign-up must pass (private.handle_new_user refuses a missing, impossible or under-18 date of birth), so its help
 * says so.
 */
export const APPROVAL_MODE_HINTS: Record<EnumValue<"approval_mode">, string> = {
  manual: "An admin approves each new account on the Approvals screen. Every admin is told of each sign-up at once.",
  auto: "New accounts are approved as they sign up. The only check is the one every sign-up passes: a real date of birth showing 18 or over. Nothing checks identity, address or a second account.",
};

/** The words for `value` of enum `set`; a value newer than this build (a rolling deploy) shows as stored. */
export function enumLabel<E extends EnumName>(set: E, value: string): string {
  const labels: Record<string, string> = LABELS[set];
  return Object.hasOwn(labels, value) ? labels[value] : value;
}

/** Whether `value` is one of enum `set`'s values (a URL parameter, a form field). */
export function isEnumValue<E extends EnumName>(set: E, value: unknown): value is EnumValue<E> {
  return (ENUM_VALUES[set] as readonly unknown[]).includes(value);
}
