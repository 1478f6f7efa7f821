import { createServerClient } from "@supabase/ssr";
import { NextResponse, type NextRequest } from "next/server";
import { env, supabaseEnv } from "@/lib/env";
import { sessionCookieOptions } from "./cookie-options";
import type { Database } from "./database.types";
import { visitorAddressFrom, visitorFetch } from "./visitor-fetch";

/**
 * Refreshes the session cookies for this request and returns the verified claims.
 * Follows Supabase's proxy pattern: create the client, call getClaims() at once,
 * and hand back the response the cookies were written to.
 */
export async function updateSession(request: NextRequest) {
  let response = NextResponse.next({ request });
  const settings = supabaseEnv();
  const visitor = visitorAddressFrom(request.headers, env().CLIENT_ADDRESS_HEADER);
  // Refreshing a session is limited per visitor too: forward whose it is (./visitor-fetch.ts).
  const supabase = createServerClient<Database>(settings.url, settings.publishableKey, {
    global: { fetch: visitorFetch(visitor, settings) },
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
