import { NextResponse } from "next/server";
import { z } from "zod";
import { SECOND_STEP_REQUIRED } from "@/lib/auth/calling-policy";
import { hasVerifiedFactor } from "@/lib/auth/paths";
import { crossOriginReason, isJsonRequest } from "@/lib/http/same-origin";
import { createPublicClient } from "@/lib/supabase/public";
import { createClient } from "@/lib/supabase/server";
import { visitorKeyFrom } from "@/lib/supabase/visitor-fetch";
import { newPasswordSchema } from "@/lib/validation/auth";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

const bodySchema = z.object({
  newPassword: newPasswordSchema,
  currentPassword: z.string().max(200).optional(),
});

/**
 * A session opened from an e-mailed link or code within this long may set a new password without
 * the old one (that is what a reset link is for); every other session must give the current
 * password. GoTrue records such a session's amr as "otp" (a link or code posted to /verify, which is
 * what /auth/confirm does) or, for a PKCE link, as "recovery". Either proves the mailbox, which is
 * all a reset needs. GoTrue's links themselves live an hour (mailer OTP expiry).
 */
const RECOVERY_WINDOW_SECONDS = 60 * 60;

// Spec §7: POST /api/auth/update-password with { newPassword }. Errors carry a statusMessage the
// profile screen shows as it is. Only this site's own pages may call it (Origin, JSON only), the
// session is confirmed with the auth server (a revoked one cannot act) and must have passed two-step
// verification if the user set it up, and a password sign-in must also send { currentPassword }.
async function post({ request }: RouteInput<undefined, undefined>) {
  if (crossOriginReason(request.headers)) return error(403, "Requests from other sites are refused");
  if (!isJsonRequest(request.headers)) return error(415, "Send a JSON body with newPassword");

  const supabase = await createClient();
  const { data: claims } = await supabase.auth.getClaims();
  const { data: current } = await supabase.auth.getUser();
  if (!claims?.claims || !current.user?.email) return error(401, "User not authenticated");
  if (hasVerifiedFactor(current.user.factors) && claims.claims.aal !== "aal2") return error(403, SECOND_STEP_REQUIRED);

  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return error(400, "Send a JSON body with newPassword");
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return error(400, issue?.message ?? "Failed to update password", passwordField(issue?.path[0]));
  }

  if (!openedFromRecentEmail(claims.claims.amr)) {
    const { currentPassword } = parsed.data;
    if (!currentPassword) return error(400, "Enter your current password", "currentPassword");
    const visitor = visitorKeyFrom(request.headers);
    const check = await passwordMatches(current.user.email, currentPassword, visitor);
    if (check === "wrong") return error(400, "Your current password is not right", "currentPassword");
    if (check !== "right") return error(check.status, check.message);
  }

  const { error: updateError } = await supabase.auth.updateUser({ password: parsed.data.newPassword });
  if (updateError)
    return error(updateError.status && updateError.status < 500 ? updateError.status : 500, updateError.message);
  return NextResponse.json({ ok: true });
}

const EMAILED_METHODS: readonly unknown[] = ["otp", "recovery"];

function openedFromRecentEmail(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  const now = Date.now() / 1000;
  return amr.some(
    (entry: { method?: unknown; timestamp?: unknown }) =>
      EMAILED_METHODS.includes(entry?.method) &&
      typeof entry.timestamp === "number" &&
      now - entry.timestamp < RECOVERY_WINDOW_SECONDS,
  );
}

/**
 * Asks the auth server whether `password` is this account's, with a client of its own that keeps
 * no session, and ends the session that check opened at once. Works on any GoTrue, whatever its
 * update_password_require_current_password setting.
 */
async function passwordMatches(
  email: string,
  password: string,
  visitor: string | null,
): Promise<"right" | "wrong" | { status: number; message: string }> {
  const probe = createPublicClient(visitor);
  const { data, error: signInError } = await probe.auth.signInWithPassword({ email, password });
  if (signInError) {
    if (signInError.code === "invalid_credentials") return "wrong";
    const status = signInError.status && signInError.status < 500 ? signInError.status : 500;
    return { status, message: signInError.message };
  }
  if (data.session) await probe.auth.signOut({ scope: "local" });
  return "right";
}

/** `field` names the form field the message is about, so the form shows it there (never read from the text). */
function error(status: number, statusMessage: string, field?: PasswordField) {
  return NextResponse.json({ statusCode: status, statusMessage, ...(field ? { field } : {}) }, { status });
}

type PasswordField = "newPassword" | "currentPassword";

function passwordField(key: PropertyKey | undefined): PasswordField | undefined {
  return key === "newPassword" || key === "currentPassword" ? key : undefined;
}

export const POST = defineRoute({ kind: "json" }, post);
