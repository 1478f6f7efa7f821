import { SETTING_LABELS } from "@/lib/settings/settings-fields";

// What each kind of activity (activity_log.action, written by private.log_activity) is called on screen:
// the activity log, its filter and a user's history all read this one map. A kind not listed yet (a new
// one from a later migration) still reads as words, from its name.

const FAMILY_LABELS: Record<string, string> = {
  charity: "Charity partners",
  competition: "Competitions",
  complaint: "Complaints",
  mail: "Mail",
  prize: "Prizes",
  profile: "Profiles",
  protection: "Player protection",
  protections: "Breaks and limits",
  settings: "Settings",
  spinner: "LabSpinner",
  top_up: "Top-ups",
  user: "Users",
  winner_story: "Winners' photos",
};

export const KIND_LABELS: Record<string, string> = {
  "charity.donation_recorded": "Charity donation recorded",
  "competition.cancelled": "Competition cancelled",
  "competition.closed": "Competition closed",
  "competition.created": "Competition created",
  "competition.drawn": "Competition drawn",
  "competition.entered": "Competition entered",
  "competition.postal_entry": "Postal entry recorded",
  "competition.instant_wins_set": "Instant wins set",
  "competition.instant_win": "Instant win awarded",
  "competition.instant_win_delivered": "Instant-win prize delivered",
  "competition.published": "Competition published",
  "competition.updated": "Competition edited",
  "complaint.submitted": "Complaint submitted",
  "complaint.acknowledged": "Complaint acknowledged",
  "complaint.resolved": "Complaint answered",
  "mail.sent": "Mail sent to players",
  "marketing.unsubscribed": "Unsubscribed from marketing e-mail",
  "prize.claimed": "Prize claimed",
  "prize.fulfilment": "Prize fulfilment updated",
  "prize.identity_checked": "Winner's identity checked",
  "prize.status_changed": "Prize status changed",
  "profile.initials_only": "Winner name shown as initials",
  "protection.flag_raised": "Protection flag raised",
  "protection.flag_reviewed": "Protection flag reviewed",
  "protection.intervention": "Protection intervention",
  "protections.break": "Break taken",
  "protections.self_exclusion": "Self-exclusion started",
  "protections.closed": "Account closed by the player",
  "protections.limit": "Monthly limit changed",
  "referral.credited": "Referral credit paid",
  "referral.recorded": "Referral recorded",
  "referral.refused": "Referral refused",
  "spinner.postal_request": "Spinner postal request",
  "spinner.prize": "Spinner prize won",
  "spinner.wheel_updated": "Spinner wheel updated",
  "system.alert_acknowledged": "Operations alert acknowledged",
  "system.mail_retried": "Failed mail queued again",
  "system.payment_resolved": "Payment needing a person resolved",
  "top_up.created": "Top-up started",
  "top_up.credited": "Top-up credited",
  "top_up.expired": "Top-up expired",
  "top_up.failed": "Top-up failed",
  "top_up.refunded": "Top-up refunded",
  "top_up.refused_card_cap": "Top-up refused: credit-card cap",
  "user.approved": "User approved",
  "user.credit_adjusted": "User credit adjusted",
  "user.deleted": "User deleted",
  "user.factor_removed_with_recovery_code": "Authenticator removed with a recovery code",
  "user.recovery_code_refused": "Wrong recovery code",
  "user.recovery_code_used": "Recovery code used",
  "user.recovery_codes_created": "Recovery codes made",
  "user.rejected": "User rejected",
  "user.role_changed": "Role changed",
  "user.signed_up": "User signed up",
  "user.super_admin_accepted": "Super admin invitation accepted",
  "user.super_admin_invited": "Super admin invited (setup:admin)",
  "user.two_step_enrolled": "Two-step verification set up",
  "user.two_step_reset": "Two-step verification reset",
  "user.updated": "User details edited",
  "winner_story.consent_given": "Winner consented to their photo and quote",
  "winner_story.consent_withdrawn": "Winner withdrew consent to their photo and quote",
  "winner_story.consent_recorded": "Photo consent recorded by an admin",
  "winner_story.published": "Winner's photo and quote published",
  "winner_story.removed": "Winner's photo and quote removed",
};

const capitalise = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** "settings.top_up_min" → "Setting changed: top-up minimum"; "user.approved" → "User approved". */
export function activityKindLabel(action: string): string {
  const known = KIND_LABELS[action] ?? FAMILY_LABELS[action];
  if (known) return known;
  const [family, ...rest] = action.split(".");
  const key = rest.join(".");
  if (family === "settings" && key) return `Setting changed: ${SETTING_LABELS[key] ?? key.replace(/_/g, " ")}`;
  return capitalise(action.replace(/[._]/g, " "));
}
