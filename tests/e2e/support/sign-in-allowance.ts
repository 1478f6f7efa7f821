import { expect } from "@playwright/test";
import { EMBEDDED_SECRET_KEY } from "@labcash/embedded-supabase/keys";
import { uniqueEmail } from "./users";

/** A wrong password for a new address from `visitor`, as a site sends it (the secret key, Sb-Forwarded-For). */
export function wrongSignIn(backendPort: number, visitor: string, email = uniqueEmail("nobody")): Promise<Response> {
  return fetch(`http://127.0.0.1:${backendPort}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: EMBEDDED_SECRET_KEY, "content-type": "application/json", "sb-forwarded-for": visitor },
    body: JSON.stringify({ email, password: "Wrong-guess" }),
  });
}

/**
 * Leaves `visitor`'s sign-in allowance on the auth server at `backendPort` empty as of now: after a spent allowance
 * (a refusal), wrong passwords until the one the refill has just made is taken. The allowance refills one sign-in
 * every ten seconds, so a form sent at once meets it empty however long the steps before took on this machine;
 * with no refusal first, a form could meet up to a whole sign-in already refilled.
 */
export async function emptySignInAllowance(backendPort: number, visitor: string): Promise<void> {
  let refused = false;
  await expect
    .poll(
      async () => {
        const { status } = await wrongSignIn(backendPort, visitor);
        if (status === 429) refused = true;
        else if (refused) return true;
        return false;
      },
      { timeout: 0, intervals: [50] },
    )
    .toBe(true);
}
