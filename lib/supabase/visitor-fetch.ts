// The auth server limits sign-ins, sign-ups, links, refreshes, codes and e-mail per client address. Every
// auth call the site makes comes from this server, so without help every visitor would share one address
// and one visitor's mistakes (or an attacker's) would lock out everyone. The site therefore forwards each
// visitor's own address as `Sb-Forwarded-For`, which hosted Supabase and the embedded backend honour
// only from a caller holding the secret key (a browser never does), as Supabase's rate-limit guide asks.
import { visitorKey } from "@labcash/embedded-supabase/visitor-key";
import { env, type ClientAddressSource } from "@/lib/env";

interface Keys {
  publishableKey: string;
  secretKey: string | undefined;
}

/**
 * The one way a request becomes the visitor its limits count against: the address the proxy in front wrote
 * into `source.header` (lib/env.ts: Vercel's own header, or the one CLIENT_ADDRESS_HEADER names), taking the
 * entry `source.hops` from the right. A proxy appends the address it saw to what the client sent, so only the
 * right-most entries are the proxy's; the first is whatever the client chose (the probe varied it to get a
 * fresh allowance per request). As a visitor key: IPv4 as is, IPv6 by its /64, spellings alike; null when that
 * entry is not an address.
 */
export function visitorKeyFrom(headers: Headers, source: ClientAddressSource = env().clientAddress): string | null {
  const entries = headers.get(source.header)?.split(",") ?? [];
  return visitorKey(entries[entries.length - source.hops]);
}

function urlOf(input: RequestInfo | URL): URL {
  return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
}

/**
 * A fetch for a server-side client that acts for one visitor: requests to the auth API carry the
 * visitor's address in Sb-Forwarded-For, with the secret key as the API key (and as the bearer where the
 * publishable key stood; a user's access token stays), so the auth server counts them against that
 * visitor. Everything else (the database API) goes out unchanged, as the publishable key and the user's
 * token decide what it may do. Without an address or a secret key nothing is changed.
 */
export function visitorFetch(visitor: string | null, keys: Keys): typeof fetch {
  const { secretKey, publishableKey } = keys;
  if (!visitor || !secretKey) return fetch;
  return (input, init) => {
    if (!urlOf(input).pathname.includes("/auth/v1/")) return fetch(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set("apikey", secretKey);
    if (headers.get("authorization") === `Bearer ${publishableKey}`)
      headers.set("authorization", `Bearer ${secretKey}`);
    headers.set("sb-forwarded-for", visitor);
    return fetch(input, { ...init, headers });
  };
}
