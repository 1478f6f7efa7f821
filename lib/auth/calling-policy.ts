// Who may call what: the roles an action or a route asks for, and why an account or a session is refused one,
// in the SQL's words with the stable code beside them. The action wrapper (lib/actions/action.ts) and the route
// wrapper (lib/http/define-route.ts) both ask these, so a rule is written once; the database holds the same rules
// (private.require_user() and its kin), which is what protects a caller that goes around the site.
//
// Pure (no session, no network): lib/auth/session.ts gathers the SessionFacts, and the unit tests run these
// functions as they are.
import { isAdminRole, type MyAccount } from "@/lib/data/account-schema";
import { fail, type ActionFailure } from "@/lib/actions/result";

/** Who may call an action or a route: anyone, any signed-in user, an approved user, an admin, a super admin. */
export type Role = "public" | "user" | "approved" | "admin" | "super_admin";

export const SECOND_STEP_REQUIRED = "Two-step verification required";

/**
 * Why `account` may not run an action needing `role`, in the SQL's words; null when it may. A
 * session that owes its second step (a verified factor, no code given yet: get_my_account's
 * two_step_owed) may run nothing but the actions that give the code (`firstStep`), as in SQL, where
 * private.require_user() refuses it; the role is checked first, so a player still hears that an admin
 * action is for admins.
 */
export function authorise(
  role: Role,
  account: MyAccount | null,
  options: { firstStep?: boolean } = {},
): ActionFailure | null {
  if (role === "public") return null;
  if (!account) return fail("User not authenticated", { code: "not_authenticated" });
  const refused = roleRefusal(role, account);
  if (refused) return refused;
  if (account.two_step_owed && !options.firstStep) return fail(SECOND_STEP_REQUIRED, { code: "aal2_required" });
  return null;
}

function roleRefusal(role: Exclude<Role, "public">, account: MyAccount): ActionFailure | null {
  switch (role) {
    case "user":
      return null;
    case "approved":
      if (account.approved) return null;
      return account.rejected_at
        ? fail("Your account was not approved, so you cannot enter competitions", { code: "approval_rejected" })
        : fail("Your account is awaiting approval", { code: "approval_pending" });
    case "admin":
      return isAdminRole(account.role)
        ? null
        : fail("Access denied: Admin privileges required", { code: "admin_required" });
    case "super_admin":
      return account.role === "super_admin"
        ? null
        : fail("Access denied: Super admin privileges required", { code: "super_admin_required" });
  }
}

/** What the auth server says about the caller's session (lib/auth/session.ts getSessionFacts). */
export interface SessionFacts {
  /** The session still exists: not signed out or revoked elsewhere. */
  live: boolean;
  /** The session passed two-step verification (aal2). */
  atSecondStep: boolean;
  /** The user has a verified second factor. */
  hasSecondFactor: boolean;
}

/**
 * Why a sensitive action may not run on this session, in the SQL's words; null when it may. Admins
 * always need the second step; anyone else only once they have set a factor up, since their
 * sign-in is then incomplete without it.
 */
export function sessionRefusal(role: Role, facts: SessionFacts): ActionFailure | null {
  if (!facts.live) return fail("User not authenticated", { code: "not_authenticated" });
  const admin = role === "admin" || role === "super_admin";
  if (!facts.atSecondStep && (admin || facts.hasSecondFactor))
    return fail(SECOND_STEP_REQUIRED, { code: "aal2_required" });
  return null;
}
