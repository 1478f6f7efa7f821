import { createServerClient, type SetAllCookies } from "@supabase/ssr";
import { NextResponse, type NextRequest } from "next/server";
import { supabaseEnv } from "@/lib/env";
import { log } from "@/lib/observability/log";
import { requestIdFrom } from "@/lib/observability/request-id";
import { sessionCookieOptions } from "./cookie-options";
import type { Database } from "./database.types";
import { unreadableAuthCookies } from "./unreadable-cookies";
import { visitorKeyFrom, visitorFetch } from "./visitor-fetch";

/**
 * Refreshes the session cookies for this request and returns the verified claims.
 * Follows Supabase's proxy pattern: create the client, call getClaims() at once,
 * and hand back the response the cookies were written to. That response is made when asked for, so
 * it forwards the request's headers as they are then: the proxy sets one after reading the account
 * (lib/auth/handed-on.ts).
 */
export async function updateSession(request: NextRequest) {
  let written: { cookies: Parameters<SetAllCookies>[0]; headers: Record<string, string> } = {
    cookies: [],
    headers: {},
  };
  const settings = supabaseEnv();
  const cookieOptions = sessionCookieOptions(
    request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(/:$/, ""),
  );
  // A session cookie ssr cannot read counts as none: dropped here, forgotten by the browser, one line in the log.
  const unreadable = unreadableAuthCookies(request.cookies.getAll());
  for (const name of unreadable) request.cookies.delete(name);
  if (unreadable.length > 0)
    log("warn", "session_cookie_unreadable", {
      request_id: requestIdFrom(request.headers),
      path: request.nextUrl.pathname,
      dropped: unreadable,
    });
  const visitor = visitorKeyFrom(request.headers);
  // Refreshing a session is limited per visitor too: forward whose it is (./visitor-fetch.ts).
  const supabase = createServerClient<Database>(settings.url, settings.publishableKey, {
    global: { fetch: visitorFetch(visitor, settings) },
    cookieOptions,
    cookies: {
      getAll() {
        return request.cookies.getAll();
      },
      setAll(cookiesToSet, headers) {
        for (const { name, value } of cookiesToSet) request.cookies.set(name, value);
        written = { cookies: cookiesToSet, headers: headers ?? {} };
      },
    },
  });
  const { data } = await supabase.auth.getClaims();
  const response = () => {
    const next = NextResponse.next({ request });
    for (const name of unreadable) next.cookies.set(name, "", { ...cookieOptions, path: "/", maxAge: 0 });
    for (const { name, value, options } of written.cookies) next.cookies.set(name, value, options);
    for (const [key, value] of Object.entries(written.headers)) next.headers.set(key, value);
    return next;
  };
  return { supabase, claims: data?.claims ?? null, response };
}
