// The notification kinds SQL writes (private.notification_kinds) and their words on the preferences form.
export const NOTIFICATION_KINDS = [
  "draw_won",
  "draw_lost",
  "credit",
  "approval",
  "complaint",
  "prize",
  "sign_up",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const KIND_LABELS: Record<NotificationKind, string> = {
  draw_won: "You won a draw",
  draw_lost: "Results of draws you did not win",
  credit: "Top-ups and refunds credited",
  approval: "Your account's approval",
  complaint: "Answers to your complaints",
  prize: "Your prize's progress",
  sign_up: "New sign-ups waiting for approval (admins)",
};

/** Kinds only admins are sent: a player's preferences do not offer them. */
export const ADMIN_NOTIFICATION_KINDS: readonly NotificationKind[] = ["sign_up"];
