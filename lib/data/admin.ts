import "server-only";
import { z } from "zod";
import { accountSchema, type Account } from "./account-schema";
import { callRpc } from "./server-rpc";

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
  callRpc("admin_approve_user", { p_user_id: userId }, accountSchema);

/** Rejects an account with a reason; answers the account as it now is. */
export const rejectUser = (userId: string, reason: string): Promise<Account> =>
  callRpc("admin_reject_user", { p_user_id: userId, p_reason: reason }, accountSchema);
