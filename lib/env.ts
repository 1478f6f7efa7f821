import "server-only";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY, EMBEDDED_URL } from "@/supabase/embedded/keys";

// Where the backend is. Read at run time on the server (never inlined into the
// browser bundle): all Supabase traffic goes through this server. SUPABASE_URL
// lets `npm start` and the e2e run point at an embedded backend on another port.
export function supabaseEnv() {
  const url = process.env.SUPABASE_URL ?? process.env.NEXT_PUBLIC_SUPABASE_URL;
  if (url) {
    return {
      url,
      publishableKey: required("NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY", process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY),
      secretKey: process.env.SUPABASE_SECRET_KEY,
      embedded: url === EMBEDDED_URL || process.env.LABCASH_EMBEDDED === "1",
    };
  }
  return { url: EMBEDDED_URL, publishableKey: EMBEDDED_PUBLISHABLE_KEY, secretKey: EMBEDDED_SECRET_KEY, embedded: true };
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new Error(`${name} must be set when NEXT_PUBLIC_SUPABASE_URL is set`);
  return value;
}
