// Which paths need what. Pure functions, shared by proxy.ts and the unit tests.

/** Paths a signed-out visitor is sent to /login from (the account, money and console pages). */
const PROTECTED_PREFIXES = ["/account", "/admin", "/credit", "/payment", "/purchase-success"];

/** Where an invitation's link leads once its code is checked (npm run setup:admin): the page to choose a password. */
export const SET_PASSWORD_PATH = "/auth/set-password";

/** The sign-up screen. The spec calls it /register, which next.config.ts sends here. */
export const SIGN_UP_PATH = "/signup";

/** Where an account waiting for approval is sent. */
export const PENDING_APPROVAL_PATH = "/pending-approval";

/** Spec §4: paths an unapproved user may still visit. "/" matches exactly; the rest as prefixes. */
const APPROVAL_EXEMPT_PREFIXES = [
  PENDING_APPROVAL_PATH,
  "/logout",
  "/login",
  "/register",
  SIGN_UP_PATH, // where /register leads: exempting only the redirect would send them on to /pending-approval
  "/auth/callback",
  "/auth/reset-password",
  "/auth/confirm",
  "/account",
  "/competitions",
  "/competitions-demo", // ours: sample data only, explained to anyone
  "/winners",
  "/transparency", // ours: the site's own figures (code of practice 3.4), for anyone
  "/charities", // ours: what charity partners were promised and paid (code of practice 2.6), for anyone
  "/complaints", // code of practice 1.2: anyone may read how to complain, approved or not
  "/unsubscribe", // a marketing mail's link works for anyone who holds it (PECR), approved or not
  "/docs",
  "/blog",
  "/search.json", // ours: the docs search index the header's palette fetches on every page
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

/** Where a session gives its two-step verification code, or an admin first sets up an authenticator app. */
export const TWO_STEP_PATH = "/account/two-step";

/** The two-step page, coming back to `next` afterwards. */
export function twoStepPath(next: string): string {
  return `${TWO_STEP_PATH}?next=${encodeURIComponent(next)}`;
}

/** Where an admin makes recovery codes after setting up an authenticator, going on to `next` afterwards. */
export function recoveryCodesPath(next: string): string {
  return `/account/recovery-codes?next=${encodeURIComponent(next)}`;
}

/** Whether a user's factors (as the auth server lists them) include one that has been verified. */
export function hasVerifiedFactor(factors: readonly { status: string }[] | undefined): boolean {
  return (factors ?? []).some((factor) => factor.status === "verified");
}

/**
 * Where a fresh sign-in (password, e-mail link or code exchange) goes: on to `next`, or first to the
 * code step when the user has a verified second factor, since the session is then only half there.
 */
export function afterSignIn(next: string, factors: readonly { status: string }[] | undefined): string {
  return hasVerifiedFactor(factors) ? twoStepPath(next) : next;
}

/** The sign-in page, coming back to `next` afterwards. */
export function signInPath(next?: string): string {
  return next ? `/login?next=${encodeURIComponent(next)}` : "/login";
}

/** Where the code from a sign-in e-mail is typed, coming back to `next` afterwards. */
export function signInCodePath(next?: string): string {
  return next ? `/login/code?next=${encodeURIComponent(next)}` : "/login/code";
}

/** Where a path may not lead after sign-in: back to the screens that sign in or out. */
const NEVER_NEXT = ["/login", "/signup", "/logout", "/register"];

/**
 * The one safe-redirect rule: `next` is parsed the way a browser would
 * parse a Location header against this site, and kept only when it stays on this origin as a
 * path. An absolute URL on `origin` itself (e-mail links carry one) is accepted and cut to its
 * path. The URL parser drops tabs and newlines and resolves `.`, `..` and `%2e` segments, so
 * `/.//evil.example`, `/x/..//evil.example` and `/%2e//evil.example` all come out as
 * `//evil.example`, which a browser reads as another host: the result is checked after
 * parsing, never before. Anything else falls back to `fallback`.
 */
export function safeNextPath(next: string | null | undefined, fallback = "/account", origin?: string): string {
  if (!next) return fallback;
  const base = origin ?? "http://local.invalid";
  if (!next.startsWith("/") && !next.startsWith(`${base}/`)) return fallback;
  let url: URL;
  try {
    url = new URL(next, `${base}/`);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(base).origin) return fallback;
  const path = url.pathname + url.search + url.hash;
  if (!isLocalPath(path)) return fallback;
  if (NEVER_NEXT.some((p) => underPrefix(url.pathname, p))) return fallback;
  return path;
}

/** The longest page SQL keeps to return to (private.is_return_path). */
const RETURN_PATH_MAX = 500;

/**
 * The page a player waiting for approval is sent on to once approved, from a `next` parameter: a safe path on this
 * site (safeNextPath), never the waiting page itself, else null (nothing to keep). docs/decisions/054.
 */
export function approvalReturnPath(next: string | null | undefined): string | null {
  const path = safeNextPath(next, "");
  if (
    !path ||
    path.length > RETURN_PATH_MAX ||
    underPrefix(new URL(path, "http://local.invalid").pathname, PENDING_APPROVAL_PATH)
  )
    return null;
  return path;
}

/**
 * The address of the page a request is for: Next asks for a page's payload as `/page.rsc`, `/index.rsc` or
 * `/page.segments/…`, with an `_rsc` parameter against caches, which are not addresses to send a person to.
 */
export function pageAddressOf(url: { pathname: string; search: string }): string {
  const path =
    url.pathname.replace(/^\/index(?=\.rsc$|\.segments\/)/, "/").replace(/(?:\.rsc|\.segments\/.*)$/, "") || "/";
  const search = new URLSearchParams(url.search);
  search.delete("_rsc");
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The waiting page, carrying the page to return to when there is one worth keeping (not the dashboard). */
export function pendingApprovalPath(next: string | null | undefined): string {
  const back = approvalReturnPath(next);
  return back && back !== "/account"
    ? `${PENDING_APPROVAL_PATH}?next=${encodeURIComponent(back)}`
    : PENDING_APPROVAL_PATH;
}

/**
 * True for a path a browser resolves on this origin: one leading slash, then no second slash or
 * backslash (`//host` and `/\host` name another host), and no control characters or spaces
 * that a parser would drop and so join the two.
 */
export function isLocalPath(path: string): boolean {
  return /^\/(?![/\\])/.test(path) && !/[\u0000-\u0020\u007f\\]/.test(path);
}

/**
 * The page a visitor opened /login from (its Referer, which the site's Referrer-Policy sends in full to its own
 * origin), when sign-in may lead back there: so a player who pressed the header's "Sign in" on a competition returns
 * to it (docs/decisions/055). Undefined for another site's page, a sign-in screen, or none.
 */
export function cameFrom(referer: string | null | undefined, origin: string): string | undefined {
  return safeNextPath(referer, "", origin) || undefined;
}
