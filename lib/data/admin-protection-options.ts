// The values the player-protection screens offer and the SQL accepts (player_flags.kind,
// player_interventions.kind in *_player_protection.sql). Plain constants, safe for client components.

export const FLAG_KINDS = ["limit_reached", "limit_raises", "large_top_ups", "top_up_after_break"] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];

/** Each kind of flag in words (code of practice 1.6). */
export const FLAG_KIND_LABELS: Record<FlagKind, string> = {
  limit_reached: "Monthly limit reached",
  limit_raises: "Three requests to raise the limit in 30 days",
  large_top_ups: "Top-ups over £1,000 in 24 hours",
  top_up_after_break: "Top-up of £100 or more within a day of a break ending",
};

export const INTERVENTION_KINDS = ["note", "contacted", "restricted", "lifted", "closed"] as const;
export type InterventionKind = (typeof INTERVENTION_KINDS)[number];

/** Each intervention in words (code of practice 1.7). */
export const INTERVENTION_LABELS: Record<InterventionKind, string> = {
  note: "Note",
  contacted: "Contacted the player",
  restricted: "Restricted play",
  lifted: "Lifted the restriction",
  closed: "Closed the account",
};
