// The security headers every response carries (issue "Hardening" 3), set once in next.config.ts.
// Pure, so the unit tests read the same policy the build sends.

/**
 * The Content-Security-Policy. Public pages are static (served from the cache), so a per-request
 * nonce is impossible without rendering every page per request; scripts are limited to this origin
 * instead. Inline scripts stay allowed: Next writes each page's RSC payload and the theme and
 * session markers inline, and their hashes change with every build and every revalidation of a
 * page (DECISIONS.md "Security headers"). No `unsafe-eval` outside `next dev` (React's dev tools
 * need it there), no plugins, no framing, forms post here or to Stripe's hosted checkout only.
 */
export function contentSecurityPolicy({ development }: { development: boolean }): string {
  const directives: Record<string, string[]> = {
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
    "frame-src": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

export function securityHeaders({ development }: { development: boolean }): { key: string; value: string }[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy({ development }) },
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
}
