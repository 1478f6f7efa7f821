// A session cookie the browser sent that @supabase/ssr cannot read (chunks of two writes mixed, or junk a
// visitor typed): ssr treats it as absent, and warns with a stack trace each time it reads it (twice a request).
// The proxy finds such cookies first, with ssr's own decoder, drops them from the request (nothing after it reads
// them), tells the browser to forget them, and writes one log line (lib/supabase/proxy.ts).
import { stringFromBase64URL } from "@supabase/ssr";

/** An auth storage key's cookie, whole or as chunk `.N`: the session, and the PKCE code verifier. */
const AUTH_COOKIE = /^(sb-[^=;]+-auth-token(?:-code-verifier)?)(?:\.(\d+))?$/;
/** ssr's mark on a value it encoded itself (base64url of the JSON auth-js stored). */
const BASE64_PREFIX = "base64-";

/** Whether ssr reads `value` as stored: its own encoding must decode to JSON; anything else it passes on as is. */
function readable(value: string): boolean {
  if (!value.startsWith(BASE64_PREFIX)) return true;
  try {
    JSON.parse(stringFromBase64URL(value.slice(BASE64_PREFIX.length)));
    return true;
  } catch {
    return false;
  }
}

/**
 * The names of the auth cookies (each with its chunks) whose stored value ssr could not read. A key's value is
 * its whole cookie when there is one, else its chunks `.0`, `.1`… joined until one is missing, as ssr joins them.
 */
export function unreadableAuthCookies(cookies: readonly { name: string; value: string }[]): string[] {
  type Stored = { whole?: string; chunks: Map<number, string>; names: string[] };
  const keys = new Map<string, Stored>();
  for (const { name, value } of cookies) {
    const match = AUTH_COOKIE.exec(name);
    if (!match) continue;
    const key: Stored = keys.get(match[1]) ?? { chunks: new Map(), names: [] };
    if (match[2] === undefined) key.whole = value;
    else key.chunks.set(Number(match[2]), value);
    key.names.push(name);
    keys.set(match[1], key);
  }
  const unreadable: string[] = [];
  for (const { whole, chunks, names } of keys.values()) {
    let value = whole;
    if (value === undefined) {
      value = "";
      for (let n = 0; chunks.has(n); n++) value += chunks.get(n);
    }
    if (!readable(value)) unreadable.push(...names);
  }
  return unreadable;
}
