import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from "next/constants";
import { withContentCollections } from "@content-collections/next";
import { SIGN_UP_PATH } from "./lib/auth/paths";
import { securityHeaderRoutes } from "./lib/http/security-headers";
import { routeExtensions } from "./lib/test-aids";
import { watchSiteCss, writeSiteCss } from "./scripts/site-css.mjs";

const nextConfig: NextConfig = {
  // forbidden() for the admin guard in layouts and actions (renders app/forbidden.tsx with 403).
  // globalNotFound: unknown routes render app/global-not-found.tsx, per request (it tells crawlers
  // apart), while the not-found.tsx boundaries that render with every page stay static.
  // serverActions.bodySizeLimit: a competition image reaches its upload action in the form's body (resized in
  // the browser, usually well under 1 MB, but up to the bucket's 5 MB limit), so actions take a little more
  // than that instead of Next's 1 MB.
  // turbopackFileSystemCacheForBuild: off. Next 16.4 writes a build cache (about 150 MB) by default; on this project a
  // build from a fresh clone took 72–79 CPU s with it and 50–65 without (three runs each), and a rebuild after one
  // page changed 52 with it, so it never paid for its writing: CI and a newcomer's first `npm test` start fresh.
  experimental: {
    authInterrupts: true,
    globalNotFound: true,
    serverActions: { bodySizeLimit: "6mb" },
    turbopackFileSystemCacheForBuild: false,
  },
  // Sentry's server SDK is loaded as it ships (only when SENTRY_DSN is set: lib/observability/telemetry.ts), not
  // bundled: its package also carries the build plugins (webpack, rollup) that this project does not use.
  serverExternalPackages: ["@electric-sql/pglite", "@sentry/nextjs"],
  // The embedded backend's package ships TypeScript (lib/env.ts reads its development keys); Turbopack compiles
  // workspace packages by itself, and this says so for any bundler.
  transpilePackages: ["@labcash/embedded-supabase"],
  poweredByHeader: false,
  // Test aids (*.aid.tsx, *.aid.ts: lib/test-aids.ts) are routes only in the e2e suite's build.
  pageExtensions: routeExtensions(process.env),
  // The go-live check on /admin/system compares the project with the repository's migrations and config.toml,
  // read from disk at run time: deployed with that page's function.
  outputFileTracingIncludes: { "/admin/system": ["./supabase/migrations/*.sql", "./supabase/config.toml"] },
  // `npm test` type-checks the whole project (tsc) before it starts the build its e2e suite runs against, and sets
  // this only when that check passed: the build's own pass would be the same check again. Every other build checks.
  typescript: { ignoreBuildErrors: process.env.LABCASH_BUILD_TYPECHECKED === "1" },
  // The competition pages are static with `revalidate = 2`: served from the cache and regenerated in
  // the background once two seconds old, but never served older than five (a blocking render then),
  // so a sold count or a draw result is at most five seconds late however quiet the page was.
  // Also the Cache-Control a CDN gets: s-maxage=2, stale-while-revalidate=3.
  expireTime: 5,
  // The security headers on every response; the pages the proxy gives a strict, per-request CSP
  // (lib/http/security-headers.ts STRICT_CSP_PREFIXES) get no second policy from here.
  async headers() {
    return securityHeaderRoutes({ development: process.env.NODE_ENV === "development" });
  },
  // /register is named in the approval exemptions (spec §4); sign-up lives at /signup, exempt too
  // (lib/auth/paths.ts), so an unapproved user who follows /register reaches the form.
  async redirects() {
    return [{ source: "/register", destination: SIGN_UP_PATH, permanent: true }];
  },
};

// Builds content/ into .content-collections/ (schema-checked) and the stylesheet module (scripts/site-css.mjs)
// before `next build`, and watches both in `next dev`.
export default async function config(phase: string) {
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER) await writeSiteCss();
  if (phase === PHASE_DEVELOPMENT_SERVER) watchSiteCss();
  return withContentCollections(nextConfig);
}
