import "server-only";
import { createClient } from "@supabase/supabase-js";
import { supabaseEnv } from "@/lib/env";
import type { Database } from "./database.types";

// The secret-key client: bypasses RLS, acts as service_role. Server only, for work
// no signed-in user may do themselves (payment confirmations, cron draws, mail).
export function createAdminClient() {
  const { url, secretKey } = supabaseEnv();
  if (!secretKey) throw new Error("SUPABASE_SECRET_KEY must be set on the server");
  return createClient<Database>(url, secretKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}
