import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import { createClient } from "@/lib/supabase/server";
import { getMyAccount } from "@/lib/data/account";
import { isAdminRole, type Account } from "@/lib/data/account-schema";
import { DbError } from "@/lib/data/errors";

export type { Account };

/** The verified claims of the signed-in user, or null. Cached per request. */
export const getClaims = cache(async () => {
  const supabase = await createClient();
  const { data } = await supabase.auth.getClaims();
  return data?.claims ?? null;
});

/**
 * Whether the auth server still knows this session (GET /user; GoTrue checks the session row),
 * not only that its token verifies locally: false once it was signed out or revoked elsewhere.
 * Cached per request.
 */
export const sessionIsLive = cache(async (): Promise<boolean> => {
  const supabase = await createClient();
  const { data, error } = await supabase.auth.getUser();
  return !error && data.user !== null;
});

/** The signed-in user's merged profile and account data, or null when signed out. Cached per request. */
export const getAccount = cache(async (): Promise<Account | null> => {
  const claims = await getClaims();
  if (!claims) return null;
  try {
    return await getMyAccount();
  } catch (e) {
    // A refusal or outage reads as signed out (the pages then ask to sign in); a bad shape is a bug.
    if (!(e instanceof DbError)) throw e;
    console.error("get_my_account failed", e);
    return null;
  }
});

/** The account, or a redirect to /login that comes back to `next`. */
export async function requireUser(next?: string): Promise<Account> {
  const account = await getAccount();
  if (!account) redirect(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
  return account;
}

export function isAdmin(account: Pick<Account, "role"> | null): boolean {
  return isAdminRole(account?.role);
}

/** The account of an admin; otherwise a 403 (app/forbidden.tsx shows the spec's message). */
export async function requireAdmin(next?: string): Promise<Account> {
  const account = await requireUser(next);
  if (!isAdmin(account)) forbidden();
  return account;
}

/** The account of a super admin; otherwise the spec's 403. */
export async function requireSuperAdmin(next?: string): Promise<Account> {
  const account = await requireUser(next);
  if (account.role !== "super_admin") forbidden();
  return account;
}
