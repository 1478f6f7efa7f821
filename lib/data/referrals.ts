import "server-only";
import { z } from "zod";
import { createAdminClient } from "@/lib/supabase/admin";
import { callPublicRpc } from "./public-rpc";
import { callRpcWith, declared } from "./rpc";
import { callRpc } from "./server-rpc";

// Referral credit (supabase/migrations/*_referral_credit.sql): invite codes, referrals recorded at sign-up and
// credited or refused in SQL. These read them for the account and admin pages, and check a code for sign-up.

// A referral's status is a text column with three values (not an enum), so it is narrowed beside the declared reader;
// `reason_text` is why it was refused, as players and admins read it (SQL words it).
const referralStatus = z.object({ status: z.enum(["pending", "credited", "refused"]) });
const withStatus = <R extends { status: string | null }>(r: R) => ({ ...r, ...referralStatus.parse(r) });
const REFERRAL = ["id", "status", "created_at"] as const;

/** The signed-in player's invite code (made on first use) and what their invitations came to. */
export const getMyReferrals = async () => {
  const mine = await callRpc(
    "get_my_referrals",
    {},
    declared("code", "credit", "joined", "credited", "credited_total", "friends").with({
      friends: declared(...REFERRAL),
      invited: declared(...REFERRAL),
    }),
  );
  return { ...mine, friends: mine.friends.map(withStatus), invited: mine.invited && withStatus(mine.invited) };
};
export type MyReferrals = Awaited<ReturnType<typeof getMyReferrals>>;
export type Referral = MyReferrals["friends"][number];

/** Admins: who invited a player and whom they invited. */
export const getUserReferrals = async (userId: string) => {
  const referrals = await callRpc(
    "admin_get_user_referrals",
    { p_user: userId },
    declared("referred").with({
      referred_by: declared(...REFERRAL, "user_id", "name"),
      referred: declared(...REFERRAL, "user_id", "name"),
    }),
  );
  return {
    ...referrals,
    referred_by: referrals.referred_by && withStatus(referrals.referred_by),
    referred: referrals.referred.map(withStatus),
  };
};
export type UserReferrals = Awaited<ReturnType<typeof getUserReferrals>>;
export type NamedReferral = UserReferrals["referred"][number];

/**
 * The sign-up form's invite code, checked before the account is made (the secret key: no visitor may ask the
 * database about codes). Throws a DbError coded referral_code_unknown or referral_self; answers the code as
 * SQL normalised it.
 */
export const checkReferralCode = (code: string, email: string) =>
  callRpcWith(createAdminClient(), "check_referral_code", { p_code: code, p_email: email }, declared("code"));

/**
 * What a friend's invite link says, asked as anyone (its page and preview card): the inviter's first name (null when
 * SQL will not show it) and the credit each gets; null for a code sign-up would refuse.
 */
export const getReferralInvitation = async (code: string) =>
  (await callPublicRpc("get_referral_invitation", { p_code: code }, declared("credit")))[0] ?? null;
export type ReferralInvitation = NonNullable<Awaited<ReturnType<typeof getReferralInvitation>>>;
