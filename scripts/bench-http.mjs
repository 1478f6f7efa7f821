#!/usr/bin/env node
// `npm run bench:http`: server throughput of the public pages on the production build. autocannon
// (BENCH_CONNECTIONS connections, default 20, for BENCH_SECONDS seconds each, default 5) measures every
// public page signed out, each as a ratio to a file in public/ of exactly its HTML's byte size that the
// bench writes (and removes) and the same server serves in the same run, measured just before the page
// so the ratio holds on a shared machine (target ≥ 0.8×); it prints each page's HTML and RSC
// bytes against a budget, and the signed-in pages' latency (target p50 ≤ 150 ms) beside /login's, a dynamic page
// that reads nothing. Each group (public pages with their files; signed-in pages) is loaded once over, and every URL
// again just before its measured seconds, for BENCH_WARM_SECONDS (default 5) each, so the figures are a warm
// server's, not V8 still compiling the paths those pages take. Builds first unless
// BENCH_SKIP_BUILD=1; starts `npm start` (site + embedded backend with a fresh demo database in .data/bench-http)
// on BENCH_PORT.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { createServerClient } from "@supabase/ssr";
import { EMBEDDED_PUBLISHABLE_KEY } from "@labcash/embedded-supabase/keys";
import { DEMO_PASSWORD, demoUsers } from "../tests/e2e/support/users.ts";
import { refuseE2eBuild } from "./bench-build-guard.mjs";
import { buildSite, root, startSite, stopSite, waitForSite } from "./bench-support.ts";

const port = Number(process.env.BENCH_PORT ?? 3300);
const embeddedPort = Number(process.env.BENCH_BACKEND_PORT ?? 54349);
const base = `http://127.0.0.1:${port}`;
const backend = `http://127.0.0.1:${embeddedPort}`;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const warmSeconds = Number(process.env.BENCH_WARM_SECONDS ?? 5);
const TARGET = 0.8;
const SIGNED_IN_P50 = 150;
const dataDir = path.join(root, ".data", "bench-http");

buildSite();

rmSync(dataDir, { recursive: true, force: true });
// The production server lists public/ once when it starts, so the anchor files are written between a
// first start (to learn each page's size) and the measured one.
const anchorDir = path.join(root, "public", "bench-anchor");
let server;
const startServer = () => (server = startSite({ port, backendPort: embeddedPort, dataDir }));
const stopServer = () => stopSite(server);
const waitForServer = () => waitForSite(`${base}/`);

/**
 * The first link on `page` matching `pattern` (a competition, a draw), so the bench follows the demo data. The
 * first answer can be the page the build prerendered with no backend (an empty list) while it regenerates, so
 * it asks again for up to ten seconds.
 */
async function firstLink(page, pattern) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const match = (await (await fetch(`${base}${page}`)).text()).match(pattern);
    if (match) return match[0].slice('href="'.length);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no link matching ${pattern} on ${page}`);
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

/**
 * Bytes of the page's HTML, of the site's stylesheet written into it (scripts/site-css.mjs: the same on every
 * page, so it has its own budget), and of its RSC payload (what a client navigation fetches).
 */
async function pageBytes(url) {
  const html = Buffer.from(await (await fetch(`${base}${url}`)).arrayBuffer());
  const sheetStart = html.indexOf('<style data-precedence="default" data-href="site-css">');
  const sheet = sheetStart < 0 ? 0 : html.indexOf("</style>", sheetStart) + "</style>".length - sheetStart;
  const rsc = await (await fetch(`${base}${url}`, { headers: { RSC: "1" } })).arrayBuffer();
  return { html: html.byteLength, sheet, rsc: rsc.byteLength };
}

/**
 * Loads each URL for BENCH_WARM_SECONDS before a group is measured: the paths a group's pages share (the proxy's
 * session check, the account read, a cached page's serving) warm up over tens of seconds of load, so without it
 * the first page measured in a group paid for the rest (`/account`: 10.4 → 8.2 ms of Next's CPU per request over
 * its first 30 s; docs/benchmarks.md).
 */
async function warmRound(urls, headers = {}) {
  for (const url of urls) await autocannon({ url: `${base}${url}`, connections, duration: warmSeconds, headers });
}

async function measure(url, headers = {}) {
  // Warm it: the first request may render and fill a cache, and a fresh server's first seconds on a path are V8
  // compiling it (a signed-in page measured cold took 20-35% more of Next's CPU per request than the same page a
  // round later: docs/benchmarks.md); the bench measures a server that has been serving.
  for (let i = 0; i < 3; i++) await fetch(`${base}${url}`, { headers });
  if (warmSeconds > 0) await autocannon({ url: `${base}${url}`, connections, duration: warmSeconds, headers });
  const result = await autocannon({ url: `${base}${url}`, connections, duration: seconds, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

// Budgets in bytes (uncompressed) for each public page's HTML less the stylesheet, the stylesheet, and the RSC
// payload: today's sizes with about 15% room (docs/benchmarks.md), so a page that grows past them is flagged.
const BUDGET = { html: 140_000, sheet: 68_000, rsc: 80_000 };

let failed = false;
console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
try {
  await startServer();
  await waitForServer();
  await refuseE2eBuild(base);
  const competition = await firstLink("/competitions", /href="\/competitions\/[a-z0-9-]+(?=")/);
  const draw = await firstLink("/winners", /href="\/winners\/[0-9a-f-]{36}(?=")/);
  const pages = [
    "/",
    "/competitions",
    competition,
    "/winners",
    draw,
    "/transparency",
    "/charities",
    "/docs/getting-started",
    "/blog/how-we-make-draws-verifiable",
    "/pricing",
  ];
  const sizes = new Map();
  for (const page of pages) sizes.set(page, await pageBytes(page));
  await stopServer();

  // Each public page's anchor: a file of exactly its HTML's size, served by the same server.
  rmSync(anchorDir, { recursive: true, force: true });
  mkdirSync(anchorDir, { recursive: true });
  const anchors = new Map();
  pages.forEach((page, i) => {
    const file = `page-${i}.html`;
    writeFileSync(path.join(anchorDir, file), "x".repeat(sizes.get(page).html));
    anchors.set(page, `/bench-anchor/${file}`);
  });
  await startServer();
  await waitForServer();
  for (const page of pages) {
    const res = await fetch(`${base}${anchors.get(page)}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    if (!res.ok || bytes !== sizes.get(page).html)
      throw new Error(`the anchor for ${page} was not served (${res.status})`);
  }
  const cookie = await playerCookie();

  // Each page is measured right after its anchor, so the ratio compares the two under the same load
  // from whatever else the machine is running.
  console.log(
    `\n${connections} connections, ${seconds} s each after ${warmSeconds} s of warming; ratio = page req/s ÷ its same-size public/ file's`,
  );
  console.log(
    "page".padEnd(40) +
      "req/s".padStart(8) +
      "p50".padStart(6) +
      "p99".padStart(6) +
      "file req/s".padStart(11) +
      "ratio".padStart(7) +
      `HTML B less sheet (≤${BUDGET.html})`.padStart(31) +
      `sheet B (≤${BUDGET.sheet})`.padStart(19) +
      `RSC B (≤${BUDGET.rsc})`.padStart(19),
  );
  await warmRound(pages.flatMap((page) => [anchors.get(page), page]));
  for (const page of pages) {
    const ref = await measure(anchors.get(page));
    const r = await measure(page);
    const { html, sheet, rsc } = sizes.get(page);
    const ratio = r.rps / ref.rps;
    const notes = [
      ratio < TARGET && `< ${TARGET}x`,
      html - sheet > BUDGET.html && "HTML over budget",
      sheet > BUDGET.sheet && "stylesheet over budget",
      rsc > BUDGET.rsc && "RSC over budget",
      r.errors + ref.errors > 0 && `${r.errors + ref.errors} errors/non-2xx`,
    ].filter(Boolean);
    if (notes.length > 0) failed = true;
    console.log(
      page.padEnd(40) +
        r.rps.toFixed(0).padStart(8) +
        String(r.p50).padStart(6) +
        String(r.p99).padStart(6) +
        ref.rps.toFixed(0).padStart(11) +
        `${ratio.toFixed(2)}x`.padStart(7) +
        String(html - sheet).padStart(31) +
        String(sheet).padStart(19) +
        String(rsc).padStart(19) +
        (notes.length ? `  ${notes.join(", ")}` : ""),
    );
  }

  // Signed in: the demo player's cookies; target p50 ≤ SIGNED_IN_P50 ms.
  console.log(`\nsigned in as the demo player; target p50 ≤ ${SIGNED_IN_P50} ms`);
  console.log("page".padEnd(40) + "req/s".padStart(8) + "p50".padStart(6) + "p99".padStart(6));
  const signedIn = ["/account", "/account/entries", "/credit", competition];
  await warmRound([...signedIn, "/login"], { cookie });
  for (const page of signedIn) {
    const r = await measure(page, { cookie });
    const notes = [r.p50 > SIGNED_IN_P50 && `p50 > ${SIGNED_IN_P50} ms`, r.errors > 0 && `${r.errors} errors/non-2xx`];
    if (notes.some(Boolean)) failed = true;
    console.log(
      page.padEnd(40) +
        r.rps.toFixed(0).padStart(8) +
        String(r.p50).padStart(6) +
        String(r.p99).padStart(6) +
        (notes.some(Boolean) ? `  ${notes.filter(Boolean).join(", ")}` : ""),
    );
  }
  // What Next costs before a page does anything: /login signed in renders per request and reads nothing. One Next
  // process renders on one thread, so no signed-in page's p50 can be much below this one's (docs/benchmarks.md,
  // bench:http); printed for reference, not held to the target.
  const floor = await measure("/login", { cookie });
  console.log(
    "/login (floor: renders, reads nothing)".padEnd(40) +
      floor.rps.toFixed(0).padStart(8) +
      String(floor.p50).padStart(6) +
      String(floor.p99).padStart(6) +
      (floor.errors > 0 ? `  ${floor.errors} errors/non-2xx` : ""),
  );
} finally {
  await stopServer();
  rmSync(anchorDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
