import "server-only";
import { createClient } from "@supabase/supabase-js";
import { supabaseEnv } from "@/lib/env";
import type { Database } from "./database.types";
import { visitorFetch } from "./visitor-fetch";

// The publishable-key client with no session: what anyone may read (role anon). Cached public pages
// read through it, so they never touch the request's cookies and are the same for every visitor. Given
// a visitor's address, its auth calls count against that visitor's limits (./visitor-fetch.ts).
export function createPublicClient(visitor: string | null = null) {
  const settings = supabaseEnv();
  return createClient<Database>(settings.url, settings.publishableKey, {
    global: { fetch: visitorFetch(visitor, settings) },
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}
