#!/usr/bin/env node
// `npm run bench:pages`: Lighthouse (mobile settings) on the production build for /, a docs page,
// a blog post and /pricing; prints each category's median score over BENCH_RUNS runs (default 3)
// and fails below the targets.
//
// Builds first unless BENCH_SKIP_BUILD=1. Starts `npm start` (site + embedded backend) on BENCH_PORT.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.BENCH_PORT ?? 3200);
const embeddedPort = Number(process.env.BENCH_BACKEND_PORT ?? 54339);
const base = `http://127.0.0.1:${port}`;
const pages = ["/", "/docs/getting-started", "/blog/how-we-make-draws-verifiable", "/pricing"];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const reportDir = path.join(root, ".data", "bench-reports");
const targets = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 };

if (process.env.BENCH_SKIP_BUILD !== "1" || !existsSync(path.join(root, ".next", "BUILD_ID"))) {
  execFileSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "run.mjs"), "start"], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  env: {
    ...process.env,
    PORT: String(port),
    EMBEDDED_PORT: String(embeddedPort),
    LABCASH_DATA_DIR: path.join(root, ".data", "bench"),
    NEXT_TELEMETRY_DISABLED: "1",
  },
  detached: true,
});
server.stdout.resume();

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer on ${base}`);
}

let chrome;
let failed = false;
try {
  await waitForServer();
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const rows = [];
  for (const page of pages) {
    // Warm the route once so the score measures serving, not first compilation of a cache.
    await fetch(`${base}${page}`);
    // Lighthouse's own advice: scores vary run to run, so take the median of several runs.
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(
        (await lighthouse(`${base}${page}`, { port: chrome.port, output: "json", logLevel: "error" }, undefined)).lhr,
      );
    }
    const median = (id) =>
      runs.map((lhr) => Math.round((lhr.categories[id].score ?? 0) * 100)).sort((a, b) => a - b)[Math.floor(RUNS / 2)];
    const scores = Object.fromEntries(Object.keys(runs[0].categories).map((id) => [id, median(id)]));
    const result = {
      lhr: runs.find((lhr) => Math.round((lhr.categories.performance.score ?? 0) * 100) === scores.performance),
    };
    const metric = (id) => Math.round(result.lhr.audits[id]?.numericValue ?? 0);
    rows.push({
      page,
      ...scores,
      fcp: metric("first-contentful-paint"),
      lcp: metric("largest-contentful-paint"),
      tbt: metric("total-blocking-time"),
      cls: (result.lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3),
      si: metric("speed-index"),
    });
    // The median run's full report, for digging into a low score (.data/ is not committed).
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(path.join(reportDir, `${page.replaceAll("/", "_") || "_"}.json`), JSON.stringify(result.lhr));
    for (const [id, min] of Object.entries(targets)) {
      if ((scores[id] ?? 0) < min) {
        failed = true;
        const audits = Object.values(result.lhr.audits)
          .filter(
            (a) =>
              a.score !== null &&
              a.score < 1 &&
              result.lhr.categories[id].auditRefs.some((r) => r.id === a.id && r.weight > 0),
          )
          .map((a) => `${a.id} (${a.score})`);
        console.log(`  ${page} ${id} ${scores[id]} < ${min}: ${audits.join(", ")}`);
      }
    }
  }
  console.log("\npage".padEnd(40) + "perf  a11y  best  seo   FCP ms  LCP ms  TBT ms    CLS  SI ms");
  for (const r of rows) {
    console.log(
      r.page.padEnd(39) +
        [r.performance, r.accessibility, r["best-practices"], r.seo].map((n) => String(n).padStart(4)).join("  ") +
        [r.fcp, r.lcp, r.tbt, r.cls, r.si].map((n) => String(n).padStart(8)).join(""),
    );
  }
  console.log(`\n(metrics are from the median-performance run; its report is in ${path.relative(root, reportDir)}/)`);
} finally {
  await chrome?.kill();
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
}
process.exit(failed ? 1 : 0);
