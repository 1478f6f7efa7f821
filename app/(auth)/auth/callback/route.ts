import type { NextRequest } from "next/server";
import { afterSignIn, safeNextPath } from "@/lib/auth/paths";
import { redirectTo } from "@/lib/http/redirect";
import { createClient } from "@/lib/supabase/server";
import { handleErrors } from "@/lib/http/route-handler";

// PKCE sign-in return: exchange the code for a session, then continue.
async function get(request: NextRequest) {
  const code = request.nextUrl.searchParams.get("code");
  const next = safeNextPath(request.nextUrl.searchParams.get("next"));
  if (code) {
    const supabase = await createClient();
    const { data, error } = await supabase.auth.exchangeCodeForSession(code);
    if (!error) return redirectTo(afterSignIn(next, data.user?.factors));
  }
  const error = "That sign-in link is invalid or has expired. Please sign in again.";
  return redirectTo(`/login?error=${encodeURIComponent(error)}`);
}

export const GET = handleErrors("html", get);
