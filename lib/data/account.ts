import "server-only";
import { z } from "zod";
import { accountSchema, type Account } from "./account-schema";
import { callRpc } from "./server-rpc";

const ledgerRowSchema = z.object({
  id: z.coerce.number(),
  kind: z.string(),
  amount: z.coerce.number(),
  balance_after: z.coerce.number(),
  reason: z.string().nullable(),
  reference: z.string().nullable(),
  created_at: z.string(),
});
export type LedgerRow = z.infer<typeof ledgerRowSchema>;

/** The signed-in user's ledger, newest first. */
export const getMyLedger = (limit = 50): Promise<LedgerRow[]> =>
  callRpc("get_my_ledger", { p_limit: limit }, z.array(ledgerRowSchema));

/** The signed-in user's merged profile and account data (get_my_account). */
export const getMyAccount = (): Promise<Account> => callRpc("get_my_account", {}, accountSchema);

/** Saves the signed-in user's own profile fields (an empty town clears it); answers the account as it now is. */
export const updateMyProfile = (profile: {
  name: string;
  emailNotifications: boolean;
  town: string;
}): Promise<Account> =>
  callRpc(
    "update_my_profile",
    { p_name: profile.name, p_email_notifications: profile.emailNotifications, p_town: profile.town },
    accountSchema,
  );
