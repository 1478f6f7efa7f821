// The values the admin users screens offer and the SQL accepts (admin_list_users, admin_update_user,
// admin_set_user_role, admin_set_approval_mode). Plain constants, safe for client components.

export const USER_ROLES = ["user", "admin", "super_admin"] as const;
export const APPROVAL_STATES = ["approved", "pending", "rejected", "deleted"] as const;
export const KYC_STATUSES = ["none", "pending", "verified", "rejected"] as const;
export const APPROVAL_MODES = ["manual", "auto"] as const;

export type UserRole = (typeof USER_ROLES)[number];
export type ApprovalState = (typeof APPROVAL_STATES)[number];
export type KycStatus = (typeof KYC_STATUSES)[number];
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The users list's search and filters, as admin_list_users takes them. */
export type UserFilter = {
  search: string | null;
  role: UserRole | null;
  approval: ApprovalState | null;
  kyc: KycStatus | null;
  /** Only players with a player-protection flag awaiting review. */
  flagged: boolean;
};
