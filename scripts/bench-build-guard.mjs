// The benches measure the production build in .next, which BENCH_SKIP_BUILD=1 reuses as it is. `npm test` leaves the
// e2e run's build there, made with LABCASH_ANALYTICS=1 (scripts/e2e-ports.mjs), so its prerendered pages carry the
// analytics component, whose script 404s off Vercel: a page's bytes, its scripts and Lighthouse's console-error audit
// would be the e2e build's, not the site's. The benches refuse it.

/** Throws when the server at `base` serves a page built for the e2e run. `/pricing` is prerendered at build time. */
export async function refuseE2eBuild(base) {
  const html = await (await fetch(`${base}/pricing`)).text();
  // The component's client reference in the page's inline RSC payload (components/layout/analytics.tsx).
  if (html.includes('\\"Analytics\\"]'))
    throw new Error(
      "the build in .next was made for the e2e run (analytics on): run the bench without BENCH_SKIP_BUILD=1 to build the site first",
    );
}
