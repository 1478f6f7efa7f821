import "server-only";
import { z } from "zod";
import { createAdminClient } from "@/lib/supabase/admin";
import { callRpcWith } from "./rpc";
import { callRpc } from "./server-rpc";

// Referral credit (supabase/migrations/*_referral_credit.sql): invite codes, referrals recorded at sign-up and
// credited or refused in SQL. These read them for the account and admin pages, and check a code for sign-up.

const money = z.coerce.number();

const referralSchema = z.object({
  id: z.string(),
  status: z.enum(["pending", "credited", "refused"]),
  reason: z.string().nullable(),
  /** Why it was refused, as players and admins read it (SQL words it). */
  reason_text: z.string().nullable(),
  amount: money.nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type Referral = z.infer<typeof referralSchema>;

const myReferralsSchema = z.object({
  code: z.string(),
  credit: money,
  joined: z.number().int(),
  credited: z.number().int(),
  credited_total: money,
  friends: z.array(referralSchema),
  invited: referralSchema.nullable(),
});
export type MyReferrals = z.infer<typeof myReferralsSchema>;

/** The signed-in player's invite code (made on first use) and what their invitations came to. */
export const getMyReferrals = () => callRpc("get_my_referrals", {}, myReferralsSchema);

const namedReferral = referralSchema.extend({ user_id: z.string(), name: z.string() });
export type NamedReferral = z.infer<typeof namedReferral>;
const userReferralsSchema = z.object({
  code: z.string().nullable(),
  referred_by: namedReferral.nullable(),
  referred: z.array(namedReferral),
});
export type UserReferrals = z.infer<typeof userReferralsSchema>;

/** Admins: who invited a player and whom they invited. */
export const getUserReferrals = (userId: string) =>
  callRpc("admin_get_user_referrals", { p_user: userId }, userReferralsSchema);

/**
 * The sign-up form's invite code, checked before the account is made (the secret key: no visitor may ask the
 * database about codes). Throws a DbError coded referral_code_unknown or referral_self; answers the code as
 * SQL normalised it.
 */
export const checkReferralCode = (code: string, email: string) =>
  callRpcWith(
    createAdminClient(),
    "check_referral_code",
    { p_code: code, p_email: email },
    z.object({ code: z.string() }),
  );
