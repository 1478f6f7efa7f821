import { createServerClient } from "@supabase/ssr";
import { NextResponse, type NextRequest } from "next/server";
import { supabaseEnv } from "@/lib/env";
import { sessionCookieOptions } from "./cookie-options";
import type { Database } from "./database.types";

/**
 * Refreshes the session cookies for this request and returns the verified claims.
 * Follows Supabase's proxy pattern: create the client, call getClaims() at once,
 * and hand back the response the cookies were written to.
 */
export async function updateSession(request: NextRequest) {
  let response = NextResponse.next({ request });
  const { url, publishableKey } = supabaseEnv();
  const supabase = createServerClient<Database>(url, publishableKey, {
    cookieOptions: sessionCookieOptions(
      request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(/:$/, ""),
    ),
    cookies: {
      getAll() {
        return request.cookies.getAll();
      },
      setAll(cookiesToSet, headers) {
        for (const { name, value } of cookiesToSet) request.cookies.set(name, value);
        response = NextResponse.next({ request });
        for (const { name, value, options } of cookiesToSet) response.cookies.set(name, value, options);
        for (const [key, value] of Object.entries(headers ?? {})) response.headers.set(key, value);
      },
    },
  });
  const { data } = await supabase.auth.getClaims();
  return { supabase, claims: data?.claims ?? null, response: () => response };
}
