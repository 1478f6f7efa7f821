import { NextResponse, type NextRequest } from "next/server";
import { createClient } from "@/lib/supabase/server";

// Sign out and go home. supabase-js ignores 401/403/404 from the server and still
// clears the local session (spec §4), so the cookies are always removed.
async function signOut(request: NextRequest) {
  const supabase = await createClient();
  await supabase.auth.signOut({ scope: "local" });
  const response = NextResponse.redirect(new URL("/", request.url), { status: 303 });
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}

export const GET = signOut;
export const POST = signOut;
