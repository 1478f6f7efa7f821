#!/usr/bin/env node
// `npm run bench:http`: server throughput of the public pages on the production build. autocannon
// (BENCH_CONNECTIONS connections, default 20, for BENCH_SECONDS seconds each, default 5) measures every
// public page signed out and /account signed in, each as a ratio to a static file of the same build in the
// same run, and flags a public page under 0.8× (issue 13: public pages served from the cache).
//
// The reference is /robots.txt (a tiny route answered without the proxy, as in the table), measured
// again just before each page so the ratio holds on a shared machine; /icon.svg (a file in public/) is
// printed too. Builds first unless BENCH_SKIP_BUILD=1; starts `npm start` (site + embedded
// backend with a fresh demo database in .data/bench-http) on BENCH_PORT.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { createServerClient } from "@supabase/ssr";
import { EMBEDDED_PUBLISHABLE_KEY } from "@labcash/embedded-supabase/keys";
import { DEMO_PASSWORD, demoUsers } from "../tests/e2e/support/users.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.BENCH_PORT ?? 3300);
const embeddedPort = Number(process.env.BENCH_BACKEND_PORT ?? 54349);
const base = `http://127.0.0.1:${port}`;
const backend = `http://127.0.0.1:${embeddedPort}`;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const TARGET = 0.8;
const dataDir = path.join(root, ".data", "bench-http");

if (process.env.BENCH_SKIP_BUILD !== "1" || !existsSync(path.join(root, ".next", "BUILD_ID"))) {
  execFileSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
}

rmSync(dataDir, { recursive: true, force: true });
const server = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "run.mjs"), "start"], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  env: {
    ...process.env,
    PORT: String(port),
    EMBEDDED_PORT: String(embeddedPort),
    LABCASH_DATA_DIR: dataDir,
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

/** The first link on `page` matching `pattern` (a competition, a draw), so the bench follows the demo data. */
async function firstLink(page, pattern) {
  const html = await (await fetch(`${base}${page}`)).text();
  const match = html.match(pattern);
  if (!match) throw new Error(`no link matching ${pattern} on ${page}`);
  return match[0].slice('href="'.length);
}

/** The session cookies of the demo player, as the browser would hold them after signing in. */
async function playerCookie() {
  const jar = new Map();
  const supabase = createServerClient(backend, EMBEDDED_PUBLISHABLE_KEY, {
    cookies: {
      getAll: () => [...jar].map(([name, value]) => ({ name, value })),
      setAll: (cookies) => cookies.forEach(({ name, value }) => jar.set(name, value)),
    },
  });
  const { error } = await supabase.auth.signInWithPassword({ email: demoUsers.player.email, password: DEMO_PASSWORD });
  if (error) throw new Error(`signing in the demo player: ${error.message}`);
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

async function measure(url, headers = {}) {
  // Warm it: the first request may render and fill a cache; the bench measures serving.
  for (let i = 0; i < 3; i++) await fetch(`${base}${url}`, { headers });
  const result = await autocannon({ url: `${base}${url}`, connections, duration: seconds, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

let failed = false;
try {
  await waitForServer();
  const competition = await firstLink("/competitions", /href="\/competitions\/[a-z0-9-]+(?=")/);
  const draw = await firstLink("/winners", /href="\/winners\/[0-9a-f-]{36}(?=")/);
  const pages = [
    "/",
    "/competitions",
    competition,
    "/winners",
    draw,
    "/docs/getting-started",
    "/blog/how-we-make-draws-verifiable",
    "/pricing",
  ];
  const reference = "/robots.txt";
  // A fresh server is still compiling its hot paths: give it a few seconds of load before measuring.
  await autocannon({ url: `${base}${reference}`, connections, duration: 3 });
  const cookie = await playerCookie();
  const targets = [
    ...pages.map((page) => ({ page, url: page, public: true })),
    { page: "/icon.svg (file in public/)", url: "/icon.svg" },
    { page: "/account (signed in)", url: "/account", headers: { cookie } },
  ];
  // Each page is measured right after the reference, so the ratio compares the two under the same
  // load from whatever else the machine is running.
  const rows = [];
  for (const target of targets) {
    const ref = await measure(reference);
    rows.push({ ...target, ...(await measure(target.url, target.headers)), ref });
  }

  console.log(`\n${connections} connections, ${seconds} s each; ratio = req/s ÷ ${reference}'s, measured just before`);
  console.log(
    "page".padEnd(46) +
      "req/s".padStart(9) +
      "p50 ms".padStart(9) +
      "p99 ms".padStart(9) +
      `${reference} req/s`.padStart(18) +
      "ratio".padStart(8),
  );
  for (const r of rows) {
    const ratio = r.rps / r.ref.rps;
    const short = r.public && ratio < TARGET;
    if (short || r.errors > 0 || r.ref.errors > 0) failed = true;
    console.log(
      r.page.padEnd(46) +
        r.rps.toFixed(0).padStart(9) +
        String(r.p50).padStart(9) +
        String(r.p99).padStart(9) +
        r.ref.rps.toFixed(0).padStart(18) +
        `${ratio.toFixed(2)}x`.padStart(8) +
        (short ? `  < ${TARGET}x` : "") +
        (r.errors > 0 ? `  ${r.errors} errors/non-2xx` : ""),
    );
  }
} finally {
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {}
}
process.exit(failed ? 1 : 0);
