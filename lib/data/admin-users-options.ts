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

/**
 * What each approval mode means, on both screens that set it. Automatic approval checks nothing beyond what every
 * sign-up must pass (private.handle_new_user refuses a missing, impossible or under-18 date of birth), so its help
 * says so.
 */
export const APPROVAL_MODE_HINTS: Record<ApprovalMode, string> = {
  manual: "An admin approves each new account on the Approvals screen. Every admin is told of each sign-up at once.",
  auto: "New accounts are approved as they sign up. The only check is the one every sign-up passes: a real date of birth showing 18 or over. Nothing checks identity, address or a second account.",
};

/** The users list's search and filters, as admin_list_users takes them. */
export type UserFilter = {
  search: string | null;
  role: UserRole | null;
  approval: ApprovalState | null;
  kyc: KycStatus | null;
  /** Only players with a player-protection flag awaiting review. */
  flagged: boolean;
};
