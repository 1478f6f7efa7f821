// A prize's progress, the same words everywhere: the public winners page, the winner's account and the admin
// console. SQL owns the transitions (private.prize_move, draws_prize_fulfilment_steps_check): awaiting claim →
// claimed → verified → delivered, each step with its date, delivered with its proof reference.

import { ENUM_VALUES, LABELS, type EnumValue } from "@/lib/labels";

export const PRIZE_STATUSES = ENUM_VALUES.prize_status;
export type PrizeStatus = EnumValue<"prize_status">;

/** How a step is coloured: a subset of the badge primitive's variants (lib never imports components). */
export type PrizeTone = "warning" | "info" | "primary" | "success";

export const PRIZE_STATUS = {
  awaiting_claim: {
    label: LABELS.prize_status.awaiting_claim,
    variant: "warning",
    /** For the winner. */
    winner: "Claim your prize: choose how you want it and where it goes.",
    /** For anyone (the winners page). */
    public: "The winner has not claimed the prize yet.",
  },
  claimed: {
    label: LABELS.prize_status.claimed,
    variant: "info",
    winner:
      "We have your claim. We will check your identity, then arrange delivery; you can change your claim until then.",
    public: "The winner has claimed the prize; we are checking their identity.",
  },
  verified: {
    label: LABELS.prize_status.verified,
    variant: "primary",
    winner: "We have checked your identity, so your claim is final and your prize is on its way.",
    public: "The winner's identity is checked; the prize is on its way.",
  },
  delivered: {
    label: LABELS.prize_status.delivered,
    variant: "success",
    winner: "Your prize has been delivered.",
    public: "The prize has been delivered.",
  },
} as const satisfies Record<PrizeStatus, { label: string; variant: PrizeTone; winner: string; public: string }>;

export const isPrizeStatus = (value: unknown): value is PrizeStatus => PRIZE_STATUSES.includes(value as PrizeStatus);

/** The dated steps after the draw, in order, for a timeline: "Claimed 24 November…", or null while not reached. */
export function prizeSteps(p: {
  claimed_at: string | null;
  verified_at: string | null;
  delivered_at: string | null;
}): { status: Exclude<PrizeStatus, "awaiting_claim">; label: string; at: string | null }[] {
  return [
    { status: "claimed", label: PRIZE_STATUS.claimed.label, at: p.claimed_at },
    { status: "verified", label: PRIZE_STATUS.verified.label, at: p.verified_at },
    { status: "delivered", label: PRIZE_STATUS.delivered.label, at: p.delivered_at },
  ];
}

/** What an admin checked to verify a claim, as the console shows it: "Passport ending 1234, checked by Ada Admin". */
export function identityCheckSummary(check: {
  document_type: EnumValue<"identity_document">;
  document_last_four: string;
  checked_by: string | null;
}): string {
  return `${LABELS.identity_document[check.document_type]} ending ${check.document_last_four}, checked by ${
    check.checked_by ?? "a former admin"
  }`;
}
