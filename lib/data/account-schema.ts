import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";

// The shape get_my_account() returns (profile merged with account data, spec §3).
// numeric columns arrive as JSON numbers.
export const accountSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string().nullable(),
  email_notifications: z.boolean(),
  date_of_birth: z.string().nullable(),
  town: z.string().nullable(),
  /** Appear by initials only if they win (CAP 8.28.5); default first name, surname initial and town. */
  show_initials_only: z.boolean(),
  credits: z.coerce.number(),
  role: z.enum(ENUM_VALUES.user_role),
  approved: z.boolean(),
  approved_at: z.string().nullable(),
  approved_by: z.string().nullable(),
  rejected_at: z.string().nullable(),
  rejection_reason: z.string().nullable(),
  total_spent: z.coerce.number(),
  total_entries: z.coerce.number(),
  kyc_status: z.string(),
  is_verified: z.boolean(),
  verified_at: z.string().nullable(),
  age_verified: z.boolean(),
  metadata: z.unknown().nullable(),
  created_at: z.string(),
});

export type Account = z.infer<typeof accountSchema>;

/**
 * get_my_account() also says whether the session owes its second step: the user has a verified
 * second factor and the session has not given its code (aal1). Until it does, every state-changing
 * RPC refuses with aal2_required; the proxy and the action wrapper read this to say so first.
 */
export const myAccountSchema = accountSchema.extend({
  two_step_owed: z.boolean(),
  /** Approved and the one-time "You're approved" welcome not dismissed yet. */
  welcome_due: z.boolean(),
});

/** The signed-in user's own account, as get_my_account() answers it. */
export type MyAccount = z.infer<typeof myAccountSchema>;

/** Admins and super admins (the SQL's is_admin()). */
export const isAdminRole = (role: Account["role"] | null | undefined): boolean =>
  role === "admin" || role === "super_admin";
