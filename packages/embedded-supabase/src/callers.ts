// Who is calling: the job Supabase's API gateway does before a request reaches
// Auth or PostgREST. The apikey picks the base role (publishable → anon,
// secret → service_role); a bearer access token, when present and valid,
// decides the database role and the JWT claims.
import type { IncomingMessage } from "node:http";
import { header } from "./http";
import { looksLikeJwt, TokenError, type Claims, type TokenSigner } from "./jwt";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "./keys";
import { visitorKey } from "./visitor-key";

export type Role = "anon" | "authenticated" | "service_role";
const ROLES: ReadonlySet<string> = new Set<Role>(["anon", "authenticated", "service_role"]);

export interface Caller {
  /** The database role requests run as. */
  role: Role;
  /** What `request.jwt.claims` holds: the verified token's payload, or just the role for a bare key. */
  claims: Claims;
  /** The verified user access token, when the bearer was one. */
  token?: string;
}

/** The gateway refused the request: no key, or a key it does not know. */
export class ApiKeyError extends Error {
  constructor(
    readonly kind: "missing" | "invalid",
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export function keyRole(value: string | undefined): Role | undefined {
  if (value === EMBEDDED_PUBLISHABLE_KEY) return "anon";
  if (value === EMBEDDED_SECRET_KEY) return "service_role";
  return undefined;
}

export function bearer(req: IncomingMessage): string | undefined {
  const auth = header(req, "authorization");
  const match = auth?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

/**
 * The role of the request's API key (the `apikey` header, or a key sent as the bearer). Never from the
 * URL, as Supabase's gateway also allows: these keys are published, and a key in a URL rides along in
 * any link or image a web page makes a developer's browser load.
 */
export function checkApiKey(req: IncomingMessage): Role {
  const token = bearer(req);
  const apikey = header(req, "apikey") ?? (keyRole(token) ? token : undefined);
  if (!apikey) {
    throw new ApiKeyError("missing", "No API key found in request", "No `apikey` request header was found.");
  }
  const role = keyRole(apikey);
  if (!role) {
    throw new ApiKeyError("invalid", "Invalid API key", "Double check your Supabase publishable or secret API key.");
  }
  return role;
}

/**
 * Resolves the caller. Throws ApiKeyError for a missing or unknown key and
 * TokenError for a bearer that is neither a key nor a valid access token.
 */
export async function resolveCaller(req: IncomingMessage, signer: TokenSigner): Promise<Caller> {
  const baseRole = checkApiKey(req);
  const token = bearer(req);
  // supabase-js sends the key itself as the bearer while signed out.
  if (!token || keyRole(token)) {
    const role = keyRole(token) ?? baseRole;
    return { role, claims: { role } };
  }
  if (!looksLikeJwt(token)) throw new TokenError("invalid", "token contains an invalid number of segments");
  const claims = await signer.verify(token);
  if (typeof claims.role !== "string" || !ROLES.has(claims.role)) {
    throw new TokenError("invalid", `role "${String(claims.role)}" is not allowed`);
  }
  return { role: claims.role as Role, claims, token };
}

/**
 * The visitor a request speaks for, whose rate limits it counts against, as its visitor key (visitor-key.ts:
 * IPv4 as is, IPv6 by its /64, every spelling alike): the first address in `Sb-Forwarded-For` when the
 * request carries the secret key (the site's server, forwarding the address its visitor connected from), as
 * hosted Supabase honours the header only with a secret API key; otherwise, or when that is not an address,
 * the connection's own address, as GoTrue does. A browser never holds the secret key, so it cannot choose
 * whose limits it spends.
 */
export function visitorAddress(req: IncomingMessage): string {
  const forwarded =
    keyRole(header(req, "apikey")) === "service_role"
      ? visitorKey(header(req, "sb-forwarded-for")?.split(",")[0])
      : null;
  // A live connection always has an address; only one already closed has none, and its answer goes nowhere.
  return forwarded ?? visitorKey(req.socket.remoteAddress) ?? "closed-connection";
}
