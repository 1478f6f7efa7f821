// The stable codes SQL puts in an exception's HINT beside the human message
// (`raise exception '…' using hint = 'insufficient_credit'`). Code switches on
// these, never on the message, so the wording can change without breaking a screen.
export const DB_ERROR_CODES = [
  "not_authenticated",
  "admin_required",
  "super_admin_required",
  "aal2_required",
  "reauthentication_needed",
  "email_code_void",
  "password_session_required",
  "too_many_recovery_codes",
  "no_recovery_codes",
  "recovery_code_needed",
  "factor_not_found",
  "captcha_required",
  "server_only",
  "ledger_append_only",
  "invalid_input",
  "under_18",
  "date_of_birth_required",
  "user_not_found",
  "approval_pending",
  "approval_rejected",
  "admin_not_rejectable",
  "competition_not_found",
  "competition_cancelled",
  "competition_sold_out",
  "competition_closed",
  "competition_not_open",
  "competition_not_yet_open",
  "answer_required",
  "answer_incorrect",
  "skill_answer_cooldown",
  "cap_reached",
  "cap_exceeded",
  "not_enough_tickets",
  "number_taken",
  "insufficient_credit",
  "instant_win_card_credit",
  "instant_win_majority",
  "instant_wins_locked",
  "instant_wins_exceed_tickets",
  "instant_win_not_found",
  "competition_still_open",
  "draw_seed_mismatch",
  "draw_not_found",
  "slug_taken",
  "edit_not_allowed",
  "not_a_draft",
  "already_cancelled",
  "competition_drawn",
  "top_up_below_minimum",
  "top_up_above_maximum",
  "monthly_limit_reached",
  "on_break",
  "self_excluded",
  "account_closed",
  "card_cap_exceeded",
  "top_up_not_found",
  "payment_mismatch",
  "draw_not_due",
  "postal_deadline_passed",
  "entry_list_not_available",
  "not_the_winner",
  "story_consent_required",
  "cash_not_offered",
  "claim_closed",
  "rate_limited",
  "complaint_not_found",
  "self_only",
  "self_change_refused",
  "user_deleted",
  "admin_not_deletable",
  "prize_not_verified",
  "prize_not_claimed",
  "identity_check_required",
  "delivery_address_required",
  "no_recipients",
  "unsubscribe_link_invalid",
  "unsubscribe_link_used",
  "referral_code_unknown",
  "referral_self",
  "restricted",
  "flag_not_found",
  "mail_not_failed",
  "payment_not_open",
  "alert_not_found",
  "flag_already_reviewed",
  "not_restricted",
  "spinner_off",
  "no_spin_credits",
  "spin_not_found",
  "notification_not_found",
  "super_admin_exists",
  "account_exists",
  "no_charity",
  "not_drawn",
] as const;

/** A known refusal, or 'unexpected' for anything the SQL did not label (a bug, an outage). */
export type DbErrorCode = (typeof DB_ERROR_CODES)[number] | "unexpected";

const known = new Set<string>(DB_ERROR_CODES);

/** The fields of a PostgREST error (supabase-js's PostgrestError) that matter here. */
export interface PostgrestErrorLike {
  message: string;
  code?: string | null;
  hint?: string | null;
  details?: string | null;
}

/** A refusal or failure from a database call, with a code to switch on and a message to show. */
export class DbError extends Error {
  constructor(
    readonly code: DbErrorCode,
    message: string,
    /** The SQLSTATE (e.g. 22023, P0001) or PostgREST's PGRSTxxx, for logs; never for branching. */
    readonly sqlState: string | null = null,
    /** Which RPC failed, for logs. */
    readonly rpc: string | null = null,
    /**
     * The SQL's DETAIL: for invalid_input, the field it refused where the function names one
     * (`reference`, `segments.3.weight`), so a form can put the message on that field.
     */
    readonly detail: string | null = null,
  ) {
    super(message);
    this.name = "DbError";
  }

  static fromPostgrest(error: PostgrestErrorLike, rpc: string | null = null): DbError {
    const code = error.hint && known.has(error.hint) ? (error.hint as DbErrorCode) : "unexpected";
    return new DbError(code, error.message, error.code || null, rpc, error.details || null);
  }
}
