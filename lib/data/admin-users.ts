import "server-only";
import { z } from "zod";
import {
  APPROVAL_STATES,
  KYC_STATUSES,
  USER_ROLES,
  type KycStatus,
  type UserFilter,
  type UserRole,
} from "./admin-users-options";
import { protections } from "./protections";
import { declared, noResult } from "./rpc";
import { callRpc } from "./server-rpc";

// Admin users (approvals are in approvals.ts). Admins only; the SQL checks every call
// (private.require_admin / require_super_admin) and computes every figure; this file only reads
// and asks.

const amount = z.coerce.number();

export * from "./admin-users-options";

/** One user as admin_update_user answers them in its jsonb (beside the changes, keyed by field). */
const userRowSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string().nullable(),
  role: z.enum(USER_ROLES),
  approval: z.enum(APPROVAL_STATES),
  kyc_status: z.enum(KYC_STATUSES),
  credits: amount,
  created_at: z.string(),
  deleted_at: z.string().nullable(),
  /** Player-protection flags awaiting review. */
  open_flags: z.number().int().nonnegative().default(0),
});

/** What public.admin_user always fills (the users list, admin_set_user_role and admin_delete_user return it). */
const adminUser = declared("id", "name", "role", "approval", "kyc_status", "credits", "created_at", "open_flags");

/** One page of users, newest first, after `cursor` (admin_list_users' next_cursor, null on the last page). */
export const listUsers = (filter: UserFilter, cursor: string | null, limit: number) =>
  callRpc(
    "admin_list_users",
    {
      p_search: filter.search ?? undefined,
      p_role: filter.role ?? undefined,
      p_approval: filter.approval ?? undefined,
      p_kyc: filter.kyc ?? undefined,
      p_flagged: filter.flagged ? true : undefined,
      p_cursor: cursor ?? undefined,
      p_limit: limit,
    },
    declared("rows").with({ rows: adminUser }),
  );
export type AdminUserPage = Awaited<ReturnType<typeof listUsers>>;

/**
 * One user's page (admin_get_user): profile and account (`user`, with `adminUser`'s fields), limits and breaks
 * (`protections`, as the player sees them), the 50 latest entries, the 20 latest activity rows about or by them
 * (`role` says which), and the threshold (pounds) above which an adjustment needs a super admin.
 */
export const getUser = (userId: string) =>
  callRpc(
    "admin_get_user",
    { p_user_id: userId },
    declared("user", "protections", "entries", "activity", "large_adjustment_threshold").with({
      user: declared(...adminUser.filled, "email_notifications", "marketing_consent", "total_spent", "total_entries"),
      protections,
      entries: declared(
        "id",
        "competition_id",
        "competition_title",
        "kind",
        "quantity",
        "amount",
        "status",
        "first_ticket",
        "last_ticket",
        "created_at",
      ),
      activity: declared("id", "action", "created_at", "details", "role"),
    }),
  );
export type AdminUserDetail = Awaited<ReturnType<typeof getUser>>;

/** One page of a user's ledger, newest first, older than `before` (admin_user_ledger's next_before). */
export const getUserLedger = (userId: string, before: number | null, limit: number) =>
  callRpc(
    "admin_user_ledger",
    { p_user_id: userId, p_before: before ?? undefined, p_limit: limit },
    declared("rows").with({ rows: declared("id", "kind", "amount", "balance_after", "created_at") }),
  );
export type AdminLedgerPage = Awaited<ReturnType<typeof getUserLedger>>;

const changedUserSchema = userRowSchema.extend({ changes: z.record(z.string(), z.unknown()) });

export const updateUser = (
  userId: string,
  fields: { name: string; approval: "approved" | "pending"; kyc: KycStatus },
) =>
  callRpc(
    "admin_update_user",
    { p_user_id: userId, p_name: fields.name, p_approval: fields.approval, p_kyc_status: fields.kyc },
    changedUserSchema,
  );

/** Super admins: sets another user's role; answers the user as they now are. */
export const setUserRole = (userId: string, role: UserRole) =>
  callRpc("admin_set_user_role", { p_user_id: userId, p_role: role }, adminUser);

/** Adds (positive) or takes (negative) credit with a reason; answers the new balance. */
export const adjustCredit = (userId: string, pounds: number, reason: string) =>
  callRpc(
    "admin_adjust_credit",
    { p_user_id: userId, p_amount: pounds, p_reason: reason },
    declared("ledger_id", "amount", "balance"),
  );

/** Super admins: deletes (anonymises) a player; answers them as they now are. */
export const deleteUser = (userId: string) => callRpc("admin_delete_user", { p_user_id: userId }, adminUser);

/** Super admins: allows and audits resetting another user's two-step verification (the SQL decides). */
export const recordTwoStepReset = (userId: string) =>
  callRpc("admin_record_two_step_reset", { p_user_id: userId }, noResult);
