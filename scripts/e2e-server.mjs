#!/usr/bin/env node
// Playwright's web server: a fresh production build and a fresh embedded database
// (migrations + demo seed), on the e2e ports, so every run starts from the same state.
import { execFileSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { e2eBuildEnv } from "./e2e-ports.mjs";
import { requireNode22 } from "./require-node.mjs";

requireNode22("npx playwright test");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = path.join(root, ".data", "e2e");
rmSync(dataDir, { recursive: true, force: true });

if (process.env.E2E_SKIP_BUILD !== "1") {
  execFileSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...e2eBuildEnv },
  });
}

const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "run.mjs"), "start"], {
  cwd: root,
  stdio: "inherit",
  // No auth rate limits: every test signs its own users in from this one address (tests/contract
  // covers the limits themselves).
  env: {
    ...process.env,
    LABCASH_DATA_DIR: dataDir,
    NEXT_TELEMETRY_DISABLED: "1",
    EMBEDDED_RATE_LIMITS: "off",
    // Nor the e-mail forms' CAPTCHA (tests/e2e/security-visitor-limits.spec.ts runs a server with the defaults).
    CAPTCHA_AFTER_VISITOR_EMAILS: "100000",
    CAPTCHA_AFTER_SITE_EMAILS: "100000",
    EMBEDDED_TEST_FIXTURES: "1",
    // The tests play the proxy in front of the site: each browser context names its visitor in X-Forwarded-For.
    CLIENT_ADDRESS_HEADER: "x-forwarded-for",
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
