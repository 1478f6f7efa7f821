import "server-only";
import { z } from "zod";
import { account, type Account } from "./account-schema";
import type { ApprovalMode } from "./admin-users-options";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// Every approval call (beside lib/actions/approvals.ts): the waiting list, one, many, rejection and the mode.

const pendingSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  created_at: z.string(),
});
export type PendingAccount = z.infer<typeof pendingSchema>;

/** Accounts waiting for approval, oldest first (admins only; the SQL checks). */
export const listPendingApprovals = (): Promise<PendingAccount[]> =>
  callRpc("admin_list_pending_approvals", {}, z.array(pendingSchema));

/** Approves an account and e-mails its owner; answers the account as it now is. */
export const approveUser = (userId: string): Promise<Account> =>
  callRpc("admin_approve_user", { p_user_id: userId }, account);

/** Rejects an account with a reason; answers the account as it now is. */
export const rejectUser = (userId: string, reason: string): Promise<Account> =>
  callRpc("admin_reject_user", { p_user_id: userId, p_reason: reason }, account);

/** Approves every listed account still waiting; answers who was approved and how many were skipped. */
export const approveUsers = (userIds: string[]) =>
  callRpc(
    "admin_approve_users",
    { p_user_ids: userIds },
    declared("approved", "skipped").with({ approved: declared("id", "name") }),
  );

/** admin_get_approval_mode and admin_set_approval_mode answer the declared approval_mode_setting. */
const approvalMode = declared("approval_mode");

export const getApprovalMode = async (): Promise<ApprovalMode> =>
  (await callRpc("admin_get_approval_mode", {}, approvalMode)).approval_mode;

export const setApprovalMode = async (mode: ApprovalMode): Promise<ApprovalMode> =>
  (await callRpc("admin_set_approval_mode", { p_mode: mode }, approvalMode)).approval_mode;
