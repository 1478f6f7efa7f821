import "server-only";
import { createAdminClient } from "@/lib/supabase/admin";
import { hasVerifiedFactor } from "./paths";

// A user's second factors, as the auth server's admin API (secret key) sees them: for the super
// admin's reset on the edit screen, and for an admin removing a lost factor after SQL accepted a recovery
// code. Signed-in users otherwise manage their own through lib/actions/two-step.ts.

/** Whether the user has a verified second factor. */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  const { data, error } = await createAdminClient().auth.admin.mfa.listFactors({ userId });
  if (error) throw error;
  return hasVerifiedFactor(data.factors);
}

/** Removes every second factor of the user; their sessions fall back to aal1, as GoTrue does. */
export async function removeSecondFactors(userId: string): Promise<void> {
  const { data, error } = await createAdminClient().auth.admin.mfa.listFactors({ userId });
  if (error) throw error;
  for (const factor of data.factors) await removeSecondFactor(userId, factor.id);
}

/** Removes one factor of the user (GoTrue cannot remove a verified factor for an aal1 session itself). */
export async function removeSecondFactor(userId: string, factorId: string): Promise<void> {
  const { error } = await createAdminClient().auth.admin.mfa.deleteFactor({ userId, id: factorId });
  if (error) throw error;
}
