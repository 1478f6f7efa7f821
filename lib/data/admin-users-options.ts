// The values the admin users screens offer and the SQL accepts (admin_list_users, admin_update_user,
// admin_set_user_role, admin_set_approval_mode). Plain constants, safe for client components. Roles, KYC
// statuses, approval modes and approval states are SQL enums (lib/labels.ts).
import { ENUM_VALUES, type EnumValue } from "@/lib/labels";

export const USER_ROLES = ENUM_VALUES.user_role;
export const APPROVAL_STATES = ENUM_VALUES.approval_state;
export const KYC_STATUSES = ENUM_VALUES.kyc_status;
export const APPROVAL_MODES = ENUM_VALUES.approval_mode;

export type UserRole = EnumValue<"user_role">;
export type ApprovalState = EnumValue<"approval_state">;
export type KycStatus = EnumValue<"kyc_status">;
export type ApprovalMode = EnumValue<"approval_mode">;

/** The users list's search and filters, as admin_list_users takes them. */
export type UserFilter = {
  search: string | null;
  role: UserRole | null;
  approval: ApprovalState | null;
  kyc: KycStatus | null;
  /** Only players with a player-protection flag awaiting review. */
  flagged: boolean;
};
