// Which paths need what. Pure functions, shared by proxy.ts and the unit tests.

/** Paths a signed-out visitor is sent to /login from (the protected set). */
const PROTECTED_PREFIXES = ["/account", "/admin", "/credit", "/payment", "/purchase-success"];

/** Spec §4: paths an unapproved user may still visit. "/" matches exactly; the rest as prefixes. */
const APPROVAL_EXEMPT_PREFIXES = [
  "/pending-approval",
  "/logout",
  "/login",
  "/register",
  "/auth/callback",
  "/auth/reset-password",
  "/auth/confirm",
  "/account",
  "/competitions",
  "/competitions-demo", // ours: sample data only, explained to anyone
  "/winners",
  "/complaints", // code of practice 1.2: anyone may read how to complain, approved or not
  "/docs",
  "/blog",
];

/** Always reachable without a session, whatever the rules above say. */
const ALWAYS_PUBLIC_PREFIXES = ["/login", "/auth/callback"];

/** True when `path` is `prefix` or lies below it (segment-aware: /docs matches /docs/x, not /docsx). */
export function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

export function needsSession(path: string): boolean {
  if (ALWAYS_PUBLIC_PREFIXES.some((p) => underPrefix(path, p))) return false;
  return PROTECTED_PREFIXES.some((p) => underPrefix(path, p));
}

export function exemptFromApproval(path: string): boolean {
  if (path === "/") return true;
  if (path.startsWith("/api/")) return true; // route handlers check the caller themselves
  return APPROVAL_EXEMPT_PREFIXES.some((p) => underPrefix(path, p));
}

export function isAdminPath(path: string): boolean {
  return underPrefix(path, "/admin");
}

/**
 * The `next` parameter after sign-in: only a local path (never another origin,
 * never back to the auth screens), or an absolute URL on `origin`. Anything else
 * falls back to `fallback`.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/account", origin?: string): string {
  if (!next) return fallback;
  // E-mail links may carry the full redirect URL; accept it only for this very origin.
  if (origin && next.startsWith(`${origin}/`)) next = next.slice(origin.length);
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  try {
    const url = new URL(next, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    if (["/login", "/signup", "/logout", "/register"].some((p) => underPrefix(url.pathname, p))) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
