import { declared, type RpcOutput } from "./rpc";

// The account types of public.account (profile merged with account data, spec §3) and public.my_account
// (get_my_account). No "server-only" here: the proxy reads get_my_account with them.

/** What public.account always fills (the columns that are not null), so they are typed without `| null`. */
const ACCOUNT_FILLED = [
  "id",
  "name",
  "email_notifications",
  "show_initials_only",
  "credits",
  "role",
  "approved",
  "total_spent",
  "total_entries",
  "kyc_status",
  "is_verified",
  "age_verified",
  "created_at",
] as const;

/** Reads a public.account result (update_my_profile, set_initials_only, admin_approve_user, admin_reject_user). */
export const account = declared(...ACCOUNT_FILLED);
export type Account = RpcOutput<"update_my_profile", typeof account>;

/**
 * Reads get_my_account(), which also says whether the session owes its second step (the user has a verified
 * second factor and the session has not given its code, aal1: every state-changing RPC refuses with
 * aal2_required until it does; the proxy and the action wrapper read this to say so first) and whether the
 * one-time "You're approved" welcome is due.
 */
export const myAccount = declared(...ACCOUNT_FILLED, "two_step_owed", "welcome_due");
/** The signed-in user's own account, as get_my_account() answers it. */
export type MyAccount = RpcOutput<"get_my_account", typeof myAccount>;

/** Admins and super admins (the SQL's is_admin()). */
export const isAdminRole = (role: Account["role"] | null | undefined): boolean =>
  role === "admin" || role === "super_admin";
