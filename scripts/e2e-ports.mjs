// The e2e web server's address and settings, shared by Playwright's config (which starts it on a plain
// `npx playwright test`) and `npm test` (which starts it itself beside vitest, then lets Playwright reuse it).
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BACKEND_PORT = Number(process.env.E2E_BACKEND_PORT ?? 54329);
export const e2eBaseURL = `http://127.0.0.1:${E2E_PORT}`;
/** Answers once the site and its embedded backend are up (what Playwright's webServer waits for). */
export const e2eReadyURL = `${e2eBaseURL}/login`;
/**
 * What every embedded backend the e2e suite starts is given: passwords hashed at bcrypt's minimum cost, as GoTrue's
 * own tests run, since the suite signs users up and in hundreds of times (the demo logins keep the seed's cost).
 */
export const e2eBackendEnv = { EMBEDDED_PASSWORD_HASH_COST: "quick" };
/** The environment `scripts/e2e-server.mjs` is started with, whoever starts it. */
export const e2eServerEnv = {
  ...e2eBackendEnv,
  PORT: String(E2E_PORT),
  EMBEDDED_PORT: String(E2E_BACKEND_PORT),
  LABCASH_ANALYTICS: "1",
  SITE_URL: e2eBaseURL,
};
/** What the e2e suite's production build adds to its environment: its test aids are routes (lib/test-aids.ts). */
export const e2eBuildEnv = { LABCASH_TEST_AIDS: "1" };
/** Set by `npm test` when it has started the server: Playwright then reuses it instead of starting its own. */
export const E2E_SERVER_STARTED = "E2E_SERVER_STARTED";
