import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import {
  APPROVAL_STATES,
  KYC_STATUSES,
  USER_ROLES,
  type KycStatus,
  type UserFilter,
  type UserRole,
} from "./admin-users-options";
import { protectionsSchema } from "./protections";
import { declared, noResult } from "./rpc";
import { callRpc } from "./server-rpc";

// Admin users (issue 11 item 3; approvals are in approvals.ts). Admins only; the SQL checks every call
// (private.require_admin / require_super_admin) and computes every figure; this file only reads
// and asks.

const amount = z.coerce.number();

export * from "./admin-users-options";

/** One user as the admin users list, a user's page and admin_update_user nest it in their jsonb. */
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

const userPageSchema = z.object({ rows: z.array(userRowSchema), next_cursor: z.string().nullable() });
export type AdminUserPage = z.infer<typeof userPageSchema>;

/** One page of users, newest first, after `cursor` (admin_list_users' next_cursor). */
export const listUsers = (filter: UserFilter, cursor: string | null, limit: number): Promise<AdminUserPage> =>
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
    userPageSchema,
  );

/** A player's protections as the admin sees them: the player's own shape, without the setting. */
const adminProtectionsSchema = protectionsSchema.omit({ limit_increase_delay_hours: true });

const userDetailSchema = z.object({
  user: userRowSchema.extend({
    date_of_birth: z.string().nullable(),
    town: z.string().nullable(),
    email_notifications: z.boolean(),
    approved_at: z.string().nullable(),
    approved_by_name: z.string().nullable(),
    rejected_at: z.string().nullable(),
    rejection_reason: z.string().nullable(),
    total_spent: amount,
    total_entries: amount,
    verified_at: z.string().nullable(),
  }),
  protections: adminProtectionsSchema,
  entries: z.array(
    z.object({
      id: z.string(),
      competition_id: z.string(),
      competition_title: z.string(),
      kind: z.enum(ENUM_VALUES.entry_kind),
      quantity: z.number().int(),
      amount,
      status: z.string(),
      first_ticket: z.number().int(),
      last_ticket: z.number().int(),
      created_at: z.string(),
    }),
  ),
  activity: z.array(
    z.object({
      id: z.number().int(),
      action: z.string(),
      created_at: z.string(),
      details: z.record(z.string(), z.unknown()),
      actor_id: z.string().nullable(),
      actor_name: z.string().nullable(),
      role: z.enum(["subject", "actor"]),
    }),
  ),
  /** Adjustments above this many pounds need a super admin. */
  large_adjustment_threshold: amount,
});
export type AdminUserDetail = z.infer<typeof userDetailSchema>;

/** One user's page (admin_get_user): profile, account, limits and breaks, entries, activity. */
export const getUser = (userId: string): Promise<AdminUserDetail> =>
  callRpc("admin_get_user", { p_user_id: userId }, userDetailSchema);

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

/** What public.admin_user always fills (admin_set_user_role and admin_delete_user return it). */
const adminUser = declared("id", "name", "role", "approval", "kyc_status", "credits", "created_at", "open_flags");

/** Super admins: sets another user's role; answers the user as they now are. */
export const setUserRole = (userId: string, role: UserRole) =>
  callRpc("admin_set_user_role", { p_user_id: userId, p_role: role }, adminUser);

const adjustmentSchema = z.object({ ledger_id: z.number().int(), amount, balance: amount });

/** Adds (positive) or takes (negative) credit with a reason; answers the new balance. */
export const adjustCredit = (userId: string, pounds: number, reason: string) =>
  callRpc("admin_adjust_credit", { p_user_id: userId, p_amount: pounds, p_reason: reason }, adjustmentSchema);

/** Super admins: deletes (anonymises) a player; answers them as they now are. */
export const deleteUser = (userId: string) => callRpc("admin_delete_user", { p_user_id: userId }, adminUser);

/** Super admins: allows and audits resetting another user's two-step verification (the SQL decides). */
export const recordTwoStepReset = (userId: string) =>
  callRpc("admin_record_two_step_reset", { p_user_id: userId }, noResult);
