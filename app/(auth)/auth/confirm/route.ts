import type { EmailOtpType } from "@supabase/supabase-js";
import { afterSignIn, safeNextPath } from "@/lib/auth/paths";
import { redirectTo } from "@/lib/http/redirect";
import { originFromHeaders } from "@/lib/site-url";
import { createClient } from "@/lib/supabase/server";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

const OTP_TYPES: EmailOtpType[] = ["signup", "invite", "magiclink", "recovery", "email_change", "email"];

// Links in confirmation and recovery e-mails land here: verify the token, sign in, continue.
async function get({ request }: RouteInput<undefined, undefined>) {
  const params = new URL(request.url).searchParams;
  const tokenHash = params.get("token_hash");
  const type = params.get("type") as EmailOtpType | null;
  const fallback = type === "recovery" ? "/auth/reset-password" : "/account";
  const origin = originFromHeaders((name) => request.headers.get(name));
  const next = safeNextPath(params.get("next"), fallback, origin);
  if (tokenHash && type && OTP_TYPES.includes(type)) {
    const supabase = await createClient();
    const { data, error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type });
    if (!error) return redirectTo(afterSignIn(next, data.user?.factors));
  }
  const error = "That link is invalid or has expired. Please request a new one.";
  return redirectTo(`/login?error=${encodeURIComponent(error)}`);
}

export const GET = defineRoute({ kind: "html" }, get);
