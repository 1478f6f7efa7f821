import "server-only";
import { createServerClient } from "@supabase/ssr";
import { cookies, headers } from "next/headers";
import { supabaseEnv } from "@/lib/env";
import { sessionCookieOptions } from "./cookie-options";
import type { Database } from "./database.types";

// A new client per request (never a module global): it carries this request's cookies.
export async function createClient() {
  const cookieStore = await cookies();
  const forwardedProto = (await headers()).get("x-forwarded-proto");
  const { url, publishableKey } = supabaseEnv();
  return createServerClient<Database>(url, publishableKey, {
    cookieOptions: sessionCookieOptions(forwardedProto),
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
