// The security headers every response carries, set in next.config.ts, and the
// strict Content-Security-Policy the proxy gives the pages rendered per request.
// Pure, so the unit tests read the same policies the build and the proxy send.
import { createHash } from "node:crypto";
import { documentScript } from "../document-script";

type Directives = Record<string, string[]>;

function directives({ development }: { development: boolean }): Directives {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'unsafe-inline'", ...(development ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    // Competition images may be any https:// address an admin enters (components/admin/competitions).
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'", "data:"],
    // The browser talks to this site only (the personal islands ask /api; the verifiers fetch here).
    "connect-src": ["'self'", ...(development ? ["ws:"] : [])],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", "https://checkout.stripe.com"],
    "frame-ancestors": ["'none'"],
    // Cloudflare Turnstile's CAPTCHA, which the e-mail forms load past their thresholds (components/forms/captcha-check.tsx).
    "frame-src": ["https://challenges.cloudflare.com"],
  };
}

const serialise = (policy: Directives) =>
  Object.entries(policy)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");

/**
 * The Content-Security-Policy of the cached pages (and of every response the proxy does not give the
 * strict one). Public pages are static (served from the cache), so a per-request nonce is impossible
 * without rendering every page per request; scripts are limited to this origin instead. Inline
 * scripts stay allowed: Next writes each page's RSC payload inline, and its text changes with every
 * build and every revalidation of a page (docs/decisions/019). No `unsafe-eval` outside
 * `next dev` (React's dev tools need it there), no plugins, no framing, forms post here or to
 * Stripe's hosted checkout only.
 */
export function contentSecurityPolicy({ development }: { development: boolean }): string {
  return serialise(directives({ development }));
}

/** The 'sha256-…' source of an inline script's exact text. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The pages rendered per request anyway, which get the strict policy: the signed-in areas, the
 * payment pages and the sign-in screens (app/(auth) renders per request for this). Segment-aware
 * prefixes, as lib/auth/paths.ts reads them.
 */
export const STRICT_CSP_PREFIXES = [
  "/account",
  "/admin",
  "/credit",
  "/payment",
  "/purchase-success",
  "/pending-approval",
  "/login",
  "/signup",
  "/logout",
  "/auth",
];

export function strictCspPath(path: string): boolean {
  return STRICT_CSP_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * next.config.ts `headers()` source for the cached policy: every path but the strict ones, so those
 * carry exactly one policy, the proxy's.
 */
export const CACHED_CSP_SOURCE = `/((?!(?:${STRICT_CSP_PREFIXES.map((p) => p.slice(1)).join("|")})(?:/|$)).*)`;

/**
 * The strict policy for one request (Next's CSP guide): scripts run only with this response's nonce
 * (Next stamps it on its own scripts when it renders the page, reading it from the request's
 * Content-Security-Policy header) or as the document script's hash, and whatever those load
 * ('strict-dynamic'); no 'unsafe-inline' for scripts. Styles keep 'unsafe-inline' (a nonce there
 * would switch it off, and next-themes and sonner write inline styles); everything else as above.
 */
export function strictContentSecurityPolicy({ development, nonce }: { development: boolean; nonce: string }): string {
  const policy = directives({ development });
  policy["script-src"] = [
    "'self'",
    `'nonce-${nonce}'`,
    "'strict-dynamic'",
    scriptHash(documentScript),
    ...(development ? ["'unsafe-eval'"] : []),
  ];
  return serialise(policy);
}

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

const otherHeaders = [
  // Two years, subdomains too; browsers ignore it over plain http (local development).
  { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
  },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/**
 * Donation proofs (app/media/charity-proofs): documents an admin uploaded but someone else made. A PDF shown in the
 * browser keeps its own scripts, forms and links in a sandbox.
 */
export const PROOF_CSP_SOURCE = "/media/charity-proofs/:name";

/**
 * next.config.ts `headers()`: the headers above on every path, the cached pages' policy on every path
 * but the strict ones (the proxy sets theirs), and the proofs' sandbox after it, which Next lets win.
 */
export function securityHeaderRoutes({ development }: { development: boolean }) {
  return [
    { source: "/:path*", headers: otherHeaders },
    {
      source: CACHED_CSP_SOURCE,
      headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy({ development }) }],
    },
    { source: PROOF_CSP_SOURCE, headers: [{ key: "Content-Security-Policy", value: "sandbox" }] },
  ];
}
