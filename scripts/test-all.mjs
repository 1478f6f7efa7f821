#!/usr/bin/env node
// `npm test`: type check, lint and format check (one check each, side by side), every suite (vitest's unit,
// db and contract projects and the embedded backend package's, then Playwright's e2e), then one line summing them all:
// `N passed, N failed[, N skipped]`.
// The production build the e2e suite runs against is made once, beside lint, format and vitest (it
// waits for the type check, which writes the content collections the build also writes); the e2e server
// starts on it as soon as it is done, so it is ready, with its database migrated and seeded, when vitest ends.
// Each step's wall time is printed with the CPU time its processes used, and the run's total beside its wall time.
// Exits non-zero if anything failed or a suite could not report.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { E2E_SERVER_STARTED, e2eBuildEnv, e2eReadyURL, e2eServerEnv } from "./e2e-ports.mjs";
import { requireNode22 } from "./require-node.mjs";

requireNode22("npm test");
// Every suite below inherits this Node (node_modules/.bin first on PATH): say which it is.
console.log(`Node ${process.version}`);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = path.join(root, "test-results");
mkdirSync(resultsDir, { recursive: true });
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const only = process.argv.slice(2); // e.g. `npm test -- e2e` runs one suite (typecheck, lint, format, vitest, e2e)

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// CPU time, from /proc (Linux): a process's user and system time, and the time of every child it has waited for
// (the kernel adds a child's own total, its children's included, to its parent's when the parent reaps it). A child's
// share is what the children's total grew by when it was reaped. Null where /proc is not there. A LOWER BOUND: a
// process whose parent exits or is killed before waiting for it is reaped by init and never counted here. Measured
// against a cgroup's cpuacct (every process of the run) on one run with one core: 935 CPU s here, 1,490 there; the
// build's workers (29.6 CPU s counted for a 100 s build) and part of Chromium's and vitest's processes are missed.
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
  } catch {
    return 100;
  }
})();
/** [this process's own CPU seconds, its reaped children's], or null without /proc. */
function cpuSeconds() {
  try {
    // The fields after the command's name (which may hold spaces) start at the state, field 3 of proc(5): utime and
    // stime are fields 14 and 15, cutime and cstime 16 and 17.
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ").at(-1).split(" ").map(Number);
    return [(fields[11] + fields[12]) / CLOCK_TICKS, (fields[13] + fields[14]) / CLOCK_TICKS];
  } catch {
    return null;
  }
}
let childrenCpuSeen = cpuSeconds()?.[1] ?? 0;
/** CPU seconds of the children reaped since the last call: called as a child exits, its process tree's time. */
function reapedCpu() {
  const now = cpuSeconds()?.[1];
  if (now === undefined) return null;
  const spent = now - childrenCpuSeen;
  childrenCpuSeen = now;
  return spent;
}

/** How long each step took, and its processes' CPU time, printed at the end so the next person sees where it goes. */
const durations = [];
const runStarted = Date.now();
async function timed(name, step) {
  const started = Date.now();
  const result = await step();
  durations.push([name, (Date.now() - started) / 1000, result?.cpu ?? null]);
  return result;
}

/** Runs a command with this terminal, without blocking the background build's bookkeeping. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (status, signal) => resolve({ status, signal, cpu: reapedCpu() }));
  });
}

async function suite(name, command, args, env, collect) {
  if (only.length && !only.includes(name)) return;
  console.log(`\n=== ${name} ===`);
  const exit = await timed(name, () => run(command, args, env));
  const counts = collect();
  if (!counts) {
    console.error(`${name}: no results were reported (exit ${exit.status ?? exit.signal}); counted as one failure.`);
    totals.failed += 1;
    return;
  }
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  if (exit.status !== 0 && counts.failed === 0) {
    console.error(
      `${name}: exited with ${exit.status ?? exit.signal} although no test failed; counted as one failure.`,
    );
    totals.failed += 1;
  }
}

/** Runs a command with its output kept until it ends, so checks running side by side print one after another. */
function runCaptured(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("exit", (status, signal) => {
      const cpu = reapedCpu();
      resolve({ status, signal, cpu, output: Buffer.concat(output).toString() });
    });
  });
}

// Static checks first, side by side (each is one process on one core): each counts as one check in the summary,
// passed when it exits 0. Their output is printed in this order as each ends.
function check(name, command, args) {
  if (only.length && !only.includes(name)) return null;
  const started = Date.now();
  const exit = runCaptured(command, args);
  return async () => {
    const { status, signal, output, cpu } = await exit;
    durations.push([name, (Date.now() - started) / 1000, cpu]);
    console.log(`\n=== ${name} ===`);
    if (output.trim()) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
    if (status === 0) totals.passed += 1;
    else {
      console.error(`${name} failed (exit ${status ?? signal}).`);
      totals.failed += 1;
    }
    return status === 0;
  };
}
const typecheck = check("typecheck", "npm", ["run", "--silent", "typecheck"]);
const lint = check("lint", bin("eslint"), ["."]);
const format = check("format", bin("prettier"), ["--check", "."]);
const typechecked = (await typecheck?.()) ?? false;

// The build runs in the background while the steps below use the machine too; its output goes to a
// log, printed only if it fails, so the steps' own output stays readable.
const wantsE2e = !only.length || only.includes("e2e");
const buildLog = path.join(resultsDir, "build.log");
const buildStarted = Date.now();
let buildSeconds = null;
let buildCpu = null;
const build = wantsE2e
  ? new Promise((resolve) => {
      const log = openSync(buildLog, "w");
      const child = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
        cwd: root,
        stdio: ["ignore", log, log],
        // A build after a passing type check skips its own (next.config.ts); after a failing one it reports the errors.
        env: {
          ...process.env,
          NEXT_TELEMETRY_DISABLED: "1",
          ...e2eBuildEnv,
          ...(typechecked ? { LABCASH_BUILD_TYPECHECKED: "1" } : {}),
        },
      });
      child.on("exit", (code, signal) => {
        buildSeconds = (Date.now() - buildStarted) / 1000;
        buildCpu = reapedCpu();
        resolve(code === 0 ? null : `next build exited with ${code ?? signal}`);
      });
    })
  : Promise.resolve(null);

// The e2e server (a fresh embedded database, then the launcher serving the build) starts as soon as the build is
// done, beside vitest, in its own process group so that the whole of it is stopped at the end, whatever happened before.
const serverLog = path.join(resultsDir, "e2e-server.log");
let server = null;
let serverSeconds = null;
let serverCpu = null;
/** Resolves to null once the server answers as Playwright's webServer check wants, or to why it cannot. */
async function startE2eServer() {
  if (await answers()) return `something already answers at ${e2eReadyURL}: stop it, or set E2E_PORT`;
  const started = Date.now();
  const log = openSync(serverLog, "w");
  server = spawn(process.execPath, [path.join(root, "scripts", "e2e-server.mjs")], {
    cwd: root,
    stdio: ["ignore", log, log],
    detached: true,
    env: { ...process.env, ...e2eServerEnv, E2E_SKIP_BUILD: "1" },
  });
  const exited = new Promise((resolve) =>
    server.on("exit", (code, signal) => {
      serverCpu = reapedCpu();
      resolve(code ?? signal);
    }),
  );
  let exit;
  exited.then((code) => (exit = code));
  while (Date.now() - started < 420_000) {
    if (exit !== undefined) return `the e2e server exited with ${exit}`;
    if (await answers()) {
      serverSeconds = (Date.now() - started) / 1000;
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return "the e2e server was not ready after 420 s";
}
/** Playwright's own readiness rule: a 2xx, 3xx or 400–403 answer. */
async function answers() {
  try {
    const response = await fetch(e2eReadyURL, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
    return response.status >= 200 && response.status < 404;
  } catch {
    return false;
  }
}
function serverRunning() {
  return server !== null && server.exitCode === null && server.signalCode === null;
}
/** Stops the server's whole process group (the launcher, which serves the site itself, and the embedded backend). */
async function stopE2eServer() {
  if (!serverRunning()) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  process.kill(-server.pid, "SIGTERM");
  const force = setTimeout(() => process.kill(-server.pid, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(force);
}
process.on("exit", () => {
  if (serverRunning()) process.kill(-server.pid, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    if (serverRunning()) process.kill(-server.pid, "SIGKILL");
    process.exit(130);
  });
const serverReady = build.then((failure) => (failure || !wantsE2e ? null : startE2eServer()));

await lint?.();
await format?.();

const vitestJson = path.join(resultsDir, "vitest.json");
rmSync(vitestJson, { force: true });
await suite(
  "vitest",
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`],
  {},
  () => {
    const report = readJson(vitestJson);
    if (!report) return null;
    // A file that failed without a failing test (it did not load, or a hook threw) counts once; a file whose
    // tests failed is already counted by them.
    const brokenFiles = (report.testResults ?? []).filter(
      (file) => file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed"),
    ).length;
    return {
      passed: report.numPassedTests,
      failed: report.numFailedTests + brokenFiles,
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    };
  },
);

const waitStarted = Date.now();
const buildFailure = await build;
if (wantsE2e) durations.push(["waiting for the build", (Date.now() - waitStarted) / 1000, null]);
if (buildFailure) {
  console.error(`\n${readFileSync(buildLog, "utf8")}\n${buildFailure}: the e2e suite cannot run.`);
  totals.failed += 1;
}
const serverWaitStarted = Date.now();
const serverFailure = buildFailure ? null : await serverReady;
if (wantsE2e && !buildFailure)
  durations.push(["waiting for the e2e server", (Date.now() - serverWaitStarted) / 1000, null]);
if (serverFailure) {
  console.error(`\n${readFileSync(serverLog, "utf8")}\n${serverFailure}: the e2e suite cannot run.`);
  totals.failed += 1;
}

const playwrightJson = path.join(resultsDir, "playwright.json");
rmSync(playwrightJson, { force: true });
if (!buildFailure && !serverFailure)
  await suite(
    "e2e",
    bin("playwright"),
    ["test"],
    // The server's own output is in test-results/e2e-server.log.
    { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson, E2E_SKIP_BUILD: "1", [E2E_SERVER_STARTED]: "1" },
    () => {
      const report = readJson(playwrightJson);
      if (!report?.stats) return null;
      const { expected, unexpected, flaky, skipped } = report.stats;
      const errors = report.errors?.length ?? 0; // e.g. the web server failed to start
      return { passed: expected, failed: unexpected + flaky + errors, skipped };
    },
  );

await stopE2eServer();

/** Every test's duration in seconds from vitest's and Playwright's JSON reports. */
function testDurations() {
  const tests = [];
  for (const file of readJson(vitestJson)?.testResults ?? [])
    for (const t of file.assertionResults ?? [])
      tests.push([(t.duration ?? 0) / 1000, `vitest ${path.relative(root, file.name)} › ${t.fullName}`]);
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        tests.push([
          (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0) / 1000,
          `e2e [${t.projectName}] ${file} › ${spec.title}`,
        ]);
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of readJson(playwrightJson)?.suites ?? []) walk(suite, suite.file ?? suite.title);
  return tests;
}

console.log("\nSlowest tests:");
for (const [seconds, name] of testDurations()
  .sort((a, b) => b[0] - a[0])
  .slice(0, 15))
  console.log(`  ${seconds.toFixed(1).padStart(6)} s  ${name}`);
/** Wall seconds, then the CPU seconds (user + system) of the step's processes where known. */
const times = (seconds, cpu) =>
  `${seconds.toFixed(1).padStart(6)} s${cpu === null ? " ".repeat(15) : `  ${cpu.toFixed(1).padStart(7)} CPU s`}`;
console.log(
  "Steps (typecheck, lint and format side by side, then each suite in turn), wall and CPU time (the processes the " +
    "run waited for: a lower bound, see cpuSeconds):",
);
for (const [name, seconds, cpu] of durations) console.log(`  ${times(seconds, cpu)}  ${name}`);
if (buildSeconds !== null) console.log(`  ${times(buildSeconds, buildCpu)}  (build, beside lint, format and vitest)`);
if (serverSeconds !== null)
  console.log(`  ${times(serverSeconds, null)}  (e2e server start, after the build, beside vitest)`);
if (serverCpu !== null)
  console.log(`  ${" ".repeat(8)}  ${serverCpu.toFixed(1).padStart(7)} CPU s  (the e2e server, start to stop)`);
const wall = (Date.now() - runStarted) / 1000;
const ownAndReaped = cpuSeconds();
const cpu = ownAndReaped && ownAndReaped[0] + ownAndReaped[1];
console.log(`  ${times(wall, cpu)}  in all${cpu === null ? "" : `: ${(cpu / wall).toFixed(2)} cores busy on average`}`);

console.log("");
const line = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`;
console.log(line);
process.exit(totals.failed > 0 ? 1 : 0);
