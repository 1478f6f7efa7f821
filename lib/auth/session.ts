import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { createClient } from "@/lib/supabase/server";
import { getMyAccount, getMyFactorProof } from "@/lib/data/account";
import { isAdminRole, type Account, type MyAccount } from "@/lib/data/account-schema";
import { DbError } from "@/lib/data/errors";
import type { SessionFacts } from "./calling-policy";
import { handedOnFrom } from "./handed-on";
import { hasVerifiedFactor, twoStepPath } from "./paths";
import { log } from "@/lib/observability/log";

export type { Account, MyAccount };

/** The verified claims of the signed-in user, or null. Cached per request. */
export const getClaims = cache(async () => {
  const supabase = await createClient();
  const { data } = await supabase.auth.getClaims();
  return data?.claims ?? null;
});

/**
 * What the auth server says about this session (GET /user; GoTrue checks the session row), not only
 * what its locally verified token claims: whether it is still live (false once signed out or revoked
 * elsewhere), whether it passed the second step (aal2), and whether the user has a verified second
 * factor. Cached per request.
 */
export const getSessionFacts = cache(async (): Promise<SessionFacts> => {
  const supabase = await createClient();
  const { data, error } = await supabase.auth.getUser();
  if (error || !data.user) return { live: false, atSecondStep: false, hasSecondFactor: false };
  const claims = await getClaims();
  return {
    live: true,
    atSecondStep: claims?.aal === "aal2",
    hasSecondFactor: hasVerifiedFactor(data.user.factors),
  };
});

/** The signed-in user's merged profile and account data, or null when signed out. Cached per request. */
export const getAccount = cache(async (): Promise<MyAccount | null> => {
  const claims = await getClaims();
  if (!claims) return null;
  try {
    return await getMyAccount();
  } catch (e) {
    // A refusal or outage reads as signed out (the pages then ask to sign in); a bad shape is a bug.
    if (!(e instanceof DbError)) throw e;
    log("error", "account_read_failed", { error: e });
    return null;
  }
});

/**
 * What the proxy verified and read for this page request (lib/auth/handed-on.ts), or null. Read only by the
 * signed-in pages' helpers below: they run on paths the proxy always sees, which removes a client's copy.
 */
const handedOn = cache(async () => handedOnFrom(await headers()));

/** The account, or a redirect to /login that comes back to `next`. */
export async function requireUser(next?: string): Promise<MyAccount> {
  const account = (await handedOn())?.account ?? (await getAccount());
  if (!account) redirect(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
  return account;
}

/**
 * The account (as requireUser) and the page's own reads, started together so a page waits for one round trip,
 * not two in a row. The redirect to /login still wins over a refusal from the reads, which a signed-out
 * request would get.
 */
export async function requireUserAnd<T>(next: string, read: () => Promise<T>): Promise<[MyAccount, T]> {
  const pending = read();
  // Awaited below once the account is known; until then a refusal must not surface as an unhandled rejection.
  pending.catch(() => undefined);
  const account = await requireUser(next);
  return [account, await pending];
}

export function isAdmin(account: Pick<Account, "role"> | null): boolean {
  return isAdminRole(account?.role);
}

/**
 * The account of an admin whose session passed the second step; a 403 for anyone else
 * (app/forbidden.tsx shows the spec's message), and an admin at aal1 is sent to give their code
 * (or set up an authenticator, the first time).
 */
export async function requireAdmin(next = "/admin"): Promise<MyAccount> {
  const account = await requireUser(next);
  if (!isAdmin(account)) forbidden();
  await requireSecondStep(next);
  return account;
}

/** The account of a super admin at aal2; otherwise as requireAdmin. */
export async function requireSuperAdmin(next = "/admin"): Promise<MyAccount> {
  const account = await requireUser(next);
  if (account.role !== "super_admin") forbidden();
  await requireSecondStep(next);
  return account;
}

/** The signed-in user's factor proof (get_my_factor_proof). Cached per request. */
export const getFactorProof = cache(getMyFactorProof);

/**
 * An admin's session must have given its code (aal2), with an authenticator proven through their inbox
 * (SQL is_admin asks the same); otherwise the two-step page asks for what is missing.
 */
async function requireSecondStep(next: string): Promise<void> {
  const aal = (await handedOn())?.aal ?? (await getClaims())?.aal;
  if (aal !== "aal2") redirect(twoStepPath(next));
  if (!(await getFactorProof()).factors_proven) redirect(twoStepPath(next));
}
