#!/usr/bin/env node
// `npm run bench:pages`: Lighthouse (mobile settings) on the production build for /, /competitions,
// a live competition's page and its live draw page, a docs page, a blog post and /pricing, against a
// bare Next.js 16 page (scripts/bench-bare) built and served in the same run as the reference.
// Prints each page's median scores and metrics over BENCH_RUNS runs (default 3), and its main-thread work by kind
// beside the bare page's, and fails unless:
// - accessibility, best practices and SEO are 100 on every site page;
// - every site page's performance score is at least the bare page's less five, its LCP at most 1.3× the bare page's,
//   and its main-thread work and Total Blocking Time at most twice the bare page's: bounds relative to the bare page
//   (so the target moves with this machine and this Next version, not a fixed number).
// BENCH_CPU_SLOWDOWN sets Lighthouse's simulated processor slowdown (its mobile default is 4): a phone slower than
// this machine's share of a core is measured by raising it. BENCH_ONLY=/,/competitions/* measures only those site
// pages (a trailing * matches the rest of the path), with the bare page, for a quick look at a change.
//
// Builds both apps first unless BENCH_SKIP_BUILD=1 (and a build exists). Starts `npm start` (site +
// embedded backend) on BENCH_PORT and the bare app with `next start` on BENCH_BARE_PORT. Gives up
// after BENCH_TIMEOUT_MIN minutes (default 30), stopping everything it started.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { tsImport } from "tsx/esm/api";
import { refuseE2eBuild } from "./bench-build-guard.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
const port = Number(process.env.BENCH_PORT ?? 3200);
const barePort = Number(process.env.BENCH_BARE_PORT ?? 3201);
const embeddedPort = Number(process.env.BENCH_BACKEND_PORT ?? 54339);
const base = `http://127.0.0.1:${port}`;
const bareBase = `http://127.0.0.1:${barePort}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const timeoutMinutes = Number(process.env.BENCH_TIMEOUT_MIN ?? 30);
const skipBuild = process.env.BENCH_SKIP_BUILD === "1";
const reportDir = path.join(root, ".data", "bench-reports");
// The bare app is built from a copy under .data/ (ignored by git, ESLint, Prettier and tsc), so its
// .next/ never lands in scripts/ where `npm run lint` and `tsc` would walk into it. Next resolves
// next, react and react-dom from the repo's node_modules, and reads no next.config, tsconfig, proxy
// or .env from the repo: those are looked up in the app's own directory only.
const bareSource = path.join(root, "scripts", "bench-bare");
const bareDir = path.join(root, ".data", "bench-bare");
const categoryTargets = { accessibility: 100, "best-practices": 100, seo: 100 };
const LCP_FACTOR = 1.3;
const PERFORMANCE_MARGIN = 5;
// Main-thread work and TBT at most this many times the bare page's. A bare page on a fast processor can block for
// 0 ms, which no page with a script of its own can match, so TBT's bound is never below one long task's worth.
const WORK_FACTOR = 2;
const MIN_TBT_LIMIT_MS = 50;
const cpuSlowdown = process.env.BENCH_CPU_SLOWDOWN ? Number(process.env.BENCH_CPU_SLOWDOWN) : undefined;
const only = process.env.BENCH_ONLY?.split(",").filter(Boolean);
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

const started = [];
let chrome;
function stopEverything() {
  try {
    chrome?.kill();
  } catch {}
  for (const child of started) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
}
const watchdog = setTimeout(() => {
  console.error(`bench:pages: still running after ${timeoutMinutes} min; stopping.`);
  stopEverything();
  process.exit(1);
}, timeoutMinutes * 60_000);
watchdog.unref();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopEverything();
    process.exit(130);
  });
}

/** `next build` in its own process group (so the time limit can stop its workers too). */
async function build(dir) {
  const child = spawn(process.execPath, [nextBin, "build", dir], { cwd: dir, stdio: "inherit", env, detached: true });
  started.push(child);
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`next build ${path.relative(root, dir) || "."} exited with ${code}`);
}

/** Starts a server in its own process group, so stopping the group also stops what it spawned. */
function serve(args, extraEnv) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...env, ...extraEnv },
    detached: true,
  });
  child.stdout.resume();
  started.push(child);
  return child;
}

async function waitForServer(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer on ${url}`);
}

/** A live demo competition (the one closing soonest), read from the started embedded backend. */
async function liveCompetitionPath() {
  const { EMBEDDED_PUBLISHABLE_KEY } = await tsImport("@labcash/embedded-supabase/keys", import.meta.url);
  const response = await fetch(`http://127.0.0.1:${embeddedPort}/rest/v1/rpc/list_competitions`, {
    method: "POST",
    headers: { apikey: EMBEDDED_PUBLISHABLE_KEY, "content-type": "application/json" },
    body: JSON.stringify({ p_status: "live" }),
  });
  if (!response.ok) throw new Error(`list_competitions answered ${response.status}: ${await response.text()}`);
  const [first] = await response.json();
  if (!first) throw new Error(`no live competition in ${path.join(".data", "bench")}: delete it to reseed`);
  return `/competitions/${first.slug}`;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const score = (lhr, id) => Math.round((lhr.categories[id].score ?? 0) * 100);

/** The audits that cost a category points, for a line that says why a target failed. */
function losingAudits(lhr, id) {
  return Object.values(lhr.audits)
    .filter(
      (a) => a.score !== null && a.score < 1 && lhr.categories[id].auditRefs.some((r) => r.id === a.id && r.weight > 0),
    )
    .map((a) => `${a.id} (${a.score})`)
    .join(", ");
}

// The main-thread breakdown's groups (Lighthouse's mainthread-work-breakdown audit), as this bench prints them.
const workKinds = {
  total: "all",
  styleLayout: "style+layout",
  scriptEvaluation: "script eval",
  scriptParseCompile: "parse/compile",
  parseHTML: "HTML+CSS",
  paintCompositeRender: "rendering",
  other: "other",
};

/** Main-thread milliseconds by kind (already scaled by the simulated CPU slowdown); "other" takes garbage collection. */
function mainThreadWork(lhr) {
  const audit = lhr.audits["mainthread-work-breakdown"];
  const work = Object.fromEntries(Object.keys(workKinds).map((kind) => [kind, 0]));
  work.total = audit.numericValue ?? 0;
  for (const item of audit.details?.items ?? []) {
    const kind = item.group in work && item.group !== "total" ? item.group : "other";
    work[kind] += item.duration;
  }
  return work;
}

/** The scripts the page fetched: how many, and their bytes on the wire. */
function scriptRequests(lhr) {
  const script = lhr.audits["resource-summary"]?.details?.items?.find((item) => item.resourceType === "script");
  return { count: script?.requestCount ?? 0, bytes: script?.transferSize ?? 0 };
}

let failed = false;
console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
try {
  if (!skipBuild || !existsSync(path.join(root, ".next", "BUILD_ID"))) await build(root);
  if (!skipBuild || !existsSync(path.join(bareDir, ".next", "BUILD_ID"))) {
    rmSync(bareDir, { recursive: true, force: true });
    cpSync(bareSource, bareDir, { recursive: true });
    await build(bareDir);
  }

  serve(["--import", "tsx", path.join(root, "scripts", "run.mjs"), "start"], {
    PORT: String(port),
    EMBEDDED_PORT: String(embeddedPort),
    LABCASH_DATA_DIR: path.join(root, ".data", "bench"),
  });
  // Turbopack builds the workspace root's instrumentation.ts into the bare app too (its root is the repository's),
  // and that start-up check exits without the address header `npm start` sets for the site. It runs on the server
  // only: the page the browser measures is the same.
  serve([nextBin, "start", bareDir, "-p", String(barePort), "-H", "127.0.0.1"], {
    CLIENT_ADDRESS_HEADER: "x-forwarded-for",
  });
  await Promise.all([waitForServer(`${base}/`), waitForServer(`${bareBase}/`)]);
  await refuseE2eBuild(base);

  const competitionPage = await liveCompetitionPath();
  const sitePages = [
    "/",
    "/competitions",
    competitionPage,
    `${competitionPage}/draw`,
    "/docs/getting-started",
    "/blog/how-we-make-draws-verifiable",
    "/pricing",
  ];
  const targets = [
    { label: "bare Next.js 16 page", url: `${bareBase}/`, report: "bare" },
    ...sitePages
      .filter(
        (page) =>
          !only || only.some((part) => (part.endsWith("*") ? page.startsWith(part.slice(0, -1)) : page === part)),
      )
      .map((page) => ({ label: page, url: `${base}${page}`, report: page.replaceAll("/", "_") || "_" })),
  ];

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
  // Warm every route once so the score measures serving, not a first render filling a cache.
  for (const target of targets) await fetch(target.url);
  // Lighthouse's own advice: scores vary run to run, so take the median of several runs. Runs go
  // round-robin over the pages, so a noisy moment on this shared machine hits every page alike
  // rather than all the runs of one page.
  const runs = new Map(targets.map((t) => [t, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const target of targets) {
      // A run whose trace Lighthouse could not read (e.g. NO_NAVSTART) scores nothing; its own message says to
      // run it again, so up to two more tries before it counts as a failure.
      let result;
      for (let attempt = 0; attempt < 3; attempt++) {
        result = await lighthouse(target.url, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          // Lighthouse merges this into its mobile throttling, keeping the network's.
          ...(cpuSlowdown ? { throttling: { cpuSlowdownMultiplier: cpuSlowdown } } : {}),
        });
        if (!result.lhr.runtimeError) break;
        console.error(`bench:pages: ${target.label}: ${result.lhr.runtimeError.code}, running it again`);
      }
      runs.get(target).push(result.lhr);
    }
  }

  const rows = targets.map((target) => {
    const lhrs = runs.get(target);
    const scores = Object.fromEntries(
      Object.keys(lhrs[0].categories).map((id) => [id, median(lhrs.map((l) => score(l, id)))]),
    );
    const metric = (id) => median(lhrs.map((l) => l.audits[id]?.numericValue ?? 0));
    // The median-performance run's full report, for digging into a low score (.data/ is not committed).
    const lhr = lhrs.find((l) => score(l, "performance") === scores.performance);
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(path.join(reportDir, `${target.report}.json`), JSON.stringify(lhr));
    return {
      target,
      lhr,
      ...scores,
      fcp: Math.round(metric("first-contentful-paint")),
      lcp: Math.round(metric("largest-contentful-paint")),
      tbt: Math.round(metric("total-blocking-time")),
      cls: metric("cumulative-layout-shift").toFixed(3),
      si: Math.round(metric("speed-index")),
      work: Object.fromEntries(
        Object.keys(workKinds).map((kind) => [kind, Math.round(median(lhrs.map((l) => mainThreadWork(l)[kind])))]),
      ),
      scripts: median(lhrs.map((l) => scriptRequests(l).count)),
      scriptKb: Math.round(median(lhrs.map((l) => scriptRequests(l).bytes)) / 1024),
    };
  });

  console.log("\npage".padEnd(52) + "perf  a11y  best  seo   FCP ms  LCP ms  TBT ms    CLS  SI ms");
  for (const r of rows) {
    console.log(
      r.target.label.padEnd(51) +
        [r.performance, r.accessibility, r["best-practices"], r.seo].map((n) => String(n).padStart(4)).join("  ") +
        [r.fcp, r.lcp, r.tbt, r.cls, r.si].map((n) => String(n).padStart(8)).join(""),
    );
  }
  const [bareRow, ...siteRows] = rows;
  console.log(
    "\nmain-thread ms".padEnd(52) +
      Object.values(workKinds)
        .map((label) => label.padStart(15))
        .join("") +
      "  scripts    kB",
  );
  for (const r of rows) {
    console.log(
      r.target.label.padEnd(51) +
        Object.keys(workKinds)
          .map((kind) => {
            const ratio = r === bareRow ? "" : ` ${(r.work[kind] / Math.max(bareRow.work[kind], 1)).toFixed(1)}x`;
            return `${r.work[kind]}${ratio}`.padStart(15);
          })
          .join("") +
        String(r.scripts).padStart(9) +
        String(r.scriptKb).padStart(6),
    );
  }
  console.log(
    `(median of ${RUNS} runs each, CPU slowdown ${cpuSlowdown ?? "4 (Lighthouse's default)"}; the median-performance` +
      ` run's report is in ${path.relative(root, reportDir)}/)`,
  );

  const lcpLimit = Math.round(bareRow.lcp * LCP_FACTOR);
  const performanceFloor = bareRow.performance - PERFORMANCE_MARGIN;
  const workLimit = Math.round(bareRow.work.total * WORK_FACTOR);
  const tbtLimit = Math.max(Math.round(bareRow.tbt * WORK_FACTOR), MIN_TBT_LIMIT_MS);
  console.log(
    `\nagainst the bare page: performance >= ${performanceFloor}, LCP <= ${lcpLimit} ms (${LCP_FACTOR}x ${bareRow.lcp} ms),` +
      ` main-thread work <= ${workLimit} ms (${WORK_FACTOR}x), TBT <= ${tbtLimit} ms` +
      ` (${WORK_FACTOR}x ${bareRow.tbt} ms, at least ${MIN_TBT_LIMIT_MS})`,
  );
  for (const r of siteRows) {
    const checks = [
      [`performance ${r.performance} >= ${performanceFloor}`, r.performance >= performanceFloor],
      [`LCP ${r.lcp} <= ${lcpLimit} (${(r.lcp / bareRow.lcp).toFixed(2)}x)`, r.lcp <= lcpLimit],
      [`main thread ${r.work.total} <= ${workLimit}`, r.work.total <= workLimit],
      [`TBT ${r.tbt} <= ${tbtLimit}`, r.tbt <= tbtLimit],
      ...Object.entries(categoryTargets).map(([id, min]) => [`${id} ${r[id]} >= ${min}`, r[id] >= min]),
    ];
    const misses = checks.filter(([, holds]) => !holds);
    if (misses.length) failed = true;
    console.log(
      `  ${misses.length ? "FAILS" : "holds"}  ${r.target.label.padEnd(44)}` +
        checks.map(([text, holds]) => `${holds ? "ok" : "NO"} ${text}`).join("; "),
    );
    if (r.performance < performanceFloor)
      console.log(`         performance loses on: ${losingAudits(r.lhr, "performance")}`);
    for (const [id, min] of Object.entries(categoryTargets)) {
      if (r[id] < min) console.log(`         ${id} loses on: ${losingAudits(r.lhr, id)}`);
    }
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  stopEverything();
}
process.exit(failed ? 1 : 0);
