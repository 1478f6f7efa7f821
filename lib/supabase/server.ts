import "server-only";
import { createServerClient } from "@supabase/ssr";
import { cookies, headers } from "next/headers";
import { supabaseEnv } from "@/lib/env";
import { sessionCookieOptions } from "./cookie-options";
import type { Database } from "./database.types";
import { visitorKeyFrom, visitorFetch } from "./visitor-fetch";

// A new client per request (never a module global): it carries this request's cookies.
export async function createClient() {
  const cookieStore = await cookies();
  const requestHeaders = await headers();
  const supabase = supabaseEnv();
  const visitor = visitorKeyFrom(requestHeaders);
  return createServerClient<Database>(supabase.url, supabase.publishableKey, {
    global: { fetch: visitorFetch(visitor, supabase) },
    cookieOptions: sessionCookieOptions(requestHeaders.get("x-forwarded-proto")),
    cookies: {
      getAll() {
        return cookieStore.getAll();
      },
      setAll(cookiesToSet) {
        try {
          for (const { name, value, options } of cookiesToSet) cookieStore.set(name, value, options);
        } catch {
          // Called from a Server Component, where cookies are read-only; the proxy refreshes sessions.
        }
      },
    },
  });
}
