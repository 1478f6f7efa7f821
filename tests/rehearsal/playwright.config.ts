import { defineConfig } from "@playwright/test";
import { e2eBaseURL } from "../../scripts/e2e-ports.mjs";
import suite from "../../playwright.config";

// The go-live rehearsal's one end-to-end pass (scripts/rehearsal.mjs starts its site and backend and names their
// ports in E2E_PORT and E2E_BACKEND_PORT): the e2e suite's browser and settings, one worker, no web server.
export default defineConfig({
  testDir: ".",
  outputDir: "../../test-results/rehearsal",
  workers: 1,
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: { ...suite.use, baseURL: e2eBaseURL },
});
