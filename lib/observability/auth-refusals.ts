import "server-only";
import { callRpcWith, noResult } from "@/lib/data/rpc";
import { createAdminClient } from "@/lib/supabase/admin";
import { log } from "./log";

// Refused sign-ins and two-step codes, counted per hour for /admin/system. The site counts what the
// auth server answered it, so the figures are the same on hosted Supabase and the embedded backend; no address,
// e-mail or account is kept, only the kind and the hour.

export type AuthRefusal = "sign_in" | "sign_in_limited" | "code" | "code_limited";

/** The kind of refusal an auth error code is, or null for errors that are not a refusal to count. */
export function refusalKind(step: "sign_in" | "code", code: string | undefined): AuthRefusal | null {
  // A code the MFA verification hook rejected came from a visitor held back for their wrong codes.
  if (code === "over_request_rate_limit" || code === "too_many_requests" || code === "mfa_verification_rejected")
    return `${step}_limited`;
  // A wrong e-mailed sign-in code is a refused sign-in, as a wrong password is.
  if (step === "sign_in" && (code === "invalid_credentials" || code === "otp_expired")) return "sign_in";
  if (step === "code" && code === "mfa_verification_failed") return "code";
  return null;
}

/** Counts one refusal; never fails the action that met it (a failure to count is logged). */
export async function countAuthRefusal(step: "sign_in" | "code", code: string | undefined): Promise<void> {
  const kind = refusalKind(step, code);
  if (!kind) return;
  try {
    await callRpcWith(createAdminClient(), "record_auth_refusal", { p_kind: kind }, noResult);
  } catch (e) {
    log("error", "auth_refusal_not_counted", { kind, error: e });
  }
}
