import "server-only";
import { createAdminClient } from "@/lib/supabase/admin";
import { hasVerifiedFactor } from "./paths";

// A user's second factors, as the auth server's admin API (secret key) sees them: for the super
// admin's reset on the edit screen. Signed-in users manage their own through lib/actions/two-step.ts.

/** Whether the user has a verified second factor. */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  const { data, error } = await createAdminClient().auth.admin.mfa.listFactors({ userId });
  if (error) throw error;
  return hasVerifiedFactor(data.factors);
}

/** Removes every second factor of the user; their sessions fall back to aal1, as GoTrue does. */
export async function removeSecondFactors(userId: string): Promise<void> {
  const admin = createAdminClient();
  const { data, error } = await admin.auth.admin.mfa.listFactors({ userId });
  if (error) throw error;
  for (const factor of data.factors) {
    const { error: refused } = await admin.auth.admin.mfa.deleteFactor({ userId, id: factor.id });
    if (refused) throw refused;
  }
}
