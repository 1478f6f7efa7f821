// Test aids: pages and routes that exist only for the e2e suite (/error-test and its download, /api/error-test,
// which always fail on the server so the suite can hold what a fault looks like; /_vercel/insights/script.js, which
// answers the suite's analytics as a host without Vercel's edge does, without a rendered not-found page). Each is
// named *.aid.tsx or *.aid.ts, an extension Next.js reads routes from only in a build made with LABCASH_TEST_AIDS=1:
// the e2e build sets it, a deployment's build does not (and on Vercel it is refused), so there those paths are simply
// not found. The specification's own test pages (/confetti-test, /notifications-test) are ordinary pages.

export const TEST_AID_EXTENSIONS = ["aid.tsx", "aid.ts"] as const;

/** The extensions Next.js reads pages and routes from (next.config.ts pageExtensions) in a build with `env`. */
export function routeExtensions(env: Record<string, string | undefined>): string[] {
  const defaults = ["tsx", "ts", "jsx", "js"];
  if (env.LABCASH_TEST_AIDS !== "1") return defaults;
  if (env.VERCEL === "1") throw new Error("LABCASH_TEST_AIDS is for the e2e build: a Vercel build never has test aids");
  return [...defaults, ...TEST_AID_EXTENSIONS];
}
