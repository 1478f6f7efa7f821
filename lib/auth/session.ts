import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import { createClient } from "@/lib/supabase/server";
import { accountSchema, type Account } from "@/lib/data/account-schema";

export type { Account };

/** The verified claims of the signed-in user, or null. Cached per request. */
export const getClaims = cache(async () => {
  const supabase = await createClient();
  const { data } = await supabase.auth.getClaims();
  return data?.claims ?? null;
});

/** The signed-in user's merged profile and account data, or null when signed out. Cached per request. */
export const getAccount = cache(async (): Promise<Account | null> => {
  const claims = await getClaims();
  if (!claims) return null;
  const supabase = await createClient();
  const { data, error } = await supabase.rpc("get_my_account");
  if (error) {
    console.error("get_my_account failed", error);
    return null;
  }
  return accountSchema.parse(data);
});

/** The account, or a redirect to /login that comes back to `next`. */
export async function requireUser(next?: string): Promise<Account> {
  const account = await getAccount();
  if (!account) redirect(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
  return account;
}

export function isAdmin(account: Pick<Account, "role"> | null): boolean {
  return account?.role === "admin" || account?.role === "super_admin";
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
