import { afterSignIn, safeNextPath } from "@/lib/auth/paths";
import { redirectTo } from "@/lib/http/redirect";
import { createClient } from "@/lib/supabase/server";
import { defineRoute, type RouteInput } from "@/lib/http/define-route";

// PKCE sign-in return: exchange the code for a session, then continue.
async function get({ request }: RouteInput<undefined, undefined>) {
  const search = new URL(request.url).searchParams;
  const code = search.get("code");
  const next = safeNextPath(search.get("next"));
  if (code) {
    const supabase = await createClient();
    const { data, error } = await supabase.auth.exchangeCodeForSession(code);
    if (!error) return redirectTo(afterSignIn(next, data.user?.factors));
  }
  const error = "That sign-in link is invalid or has expired. Please sign in again.";
  return redirectTo(`/login?error=${encodeURIComponent(error)}`);
}

export const GET = defineRoute({ kind: "html" }, get);
