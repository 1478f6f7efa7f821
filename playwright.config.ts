import { defineConfig, devices } from "@playwright/test";
import { E2E_SERVER_STARTED, e2eBaseURL, e2eReadyURL, e2eServerEnv } from "./scripts/e2e-ports.mjs";

// End-to-end tests drive Debian's Chromium (never a downloaded browser) against the
// production build, started with its own embedded backend and a fresh database.
const baseURL = e2eBaseURL;
/** Every spec that spins the one live wheel or edits it (admin-labspinner switches it off and on). */
const WHEEL = /labspinner[^/]*\.spec\.ts$/;
// Debian's chromium-headless-shell, the browser Playwright itself uses for headless runs: the same Blink and V8
// as Debian's full Chromium without its browser shell, so the suite takes about a third less CPU (one renderer
// per page instead of a spare one beside it, a lighter browser process). The benchmarks keep the full browser.
const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Three: with two the machine idled 14 % of the run (pages wait on the network and idle callbacks); the
  // figures are in git history (docs/decisions/README.md says where).
  workers: 3,
  // Ceilings, never expectations: every wait ends on its event (a page shows, a server answers), and a test that
  // passes never waits for these. They are set for a machine with half this one's CPU, where a page under three
  // workers can take several times as long; a broken test still fails, only later.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL,
    // No trace by default: recording one for every test, to keep it when the test failed, took a fifth of the
    // suite's time (the screencast most of it, the DOM snapshots 12 %). A failure still leaves its screenshot, the
    // page's accessibility tree (error-context.md) and the call log; `npx playwright test --trace on <spec>`
    // records one.
    trace: "off",
    screenshot: "only-on-failure",
    locale: "en-GB",
    timezoneId: "Europe/London",
    launchOptions: chromium,
    // The site's service worker (app/sw.js) would take pages' requests out of page.route()'s sight; only the
    // spec that tests it lets it run (tests/e2e/installable-app.spec.ts).
    serviceWorkers: "block",
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    // The wheel editor's spec changes the one live wheel and switches it off and on, so the specs that spin
    // or check the odds run one file at a time in their own project, beside everything else: none meets a
    // temporary wheel, and none waits for (or is skipped with) the rest of the suite. Listed first, so one
    // worker starts on it while the others take the main project, rather than it running alone at the end.
    {
      name: "wheel",
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
      dependencies: ["setup"],
      testMatch: WHEEL,
      workers: 1,
    },
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], launchOptions: chromium },
      dependencies: ["setup"],
      testIgnore: WHEEL,
    },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: e2eReadyURL,
    timeout: 420_000,
    // `npm test` starts the server itself as soon as the build is done, so it is ready while vitest still runs
    // (scripts/test-all.mjs). A plain `npx playwright test` starts its own, and never picks up a server left
    // on the port by someone else.
    reuseExistingServer: process.env[E2E_SERVER_STARTED] === "1",
    stdout: "pipe",
    stderr: "pipe",
    env: e2eServerEnv,
  },
});
