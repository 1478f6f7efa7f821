import { redirectTo } from "@/lib/http/redirect";
import { createClient } from "@/lib/supabase/server";

// Sign out and go home. supabase-js ignores 401/403/404 from the server and still
// clears the local session (spec §4), so the cookies are always removed.
async function signOut() {
  const supabase = await createClient();
  await supabase.auth.signOut({ scope: "local" });
  return redirectTo("/");
}

export const GET = signOut;
export const POST = signOut;
