// npm run bench:verify: 1,000,000-ticket labcash-draw-v2 draws, one prize and three prizes, checked in a real browser.
//
// 1. A fresh embedded database in .data/bench-verify (every migration and the demo seed), then by SQL:
//    a competition of 1,000,000 online tickets with the last four unsold (999,996 sold in ten orders
//    by the demo buyers) and four postal tickets numbered after the pool (#1,000,001–#1,000,004), past
//    its draw time. N = 1,000,000 tickets with a gap in the numbers. Then the same again with three prizes (its
//    2nd and 3rd prizes in competition_prizes).
// 2. The draw itself, private.draw_competition (what run_due_draws calls), timed in SQL.
// 3. `npm start` on that data (the production build; built first unless BENCH_SKIP_BUILD=1 and a
//    build exists): the ticket-list CSV downloaded by Node (time, size, SHA-256 against the draw's
//    hash), the entry list's first page, last page and a search.
// 4. Debian's Chromium (as playwright.config.ts finds it) opens /winners/<draw id> of each; the page downloads
//    the CSV itself and verifies the draw (every prize) with WebCrypto. Reports the browser's download and
//    verify times, as the page measured them, and that it verified, for one prize beside three.
//
// Environment: BENCH_PORT (default 3300), BENCH_BACKEND_PORT (54349), BENCH_SKIP_BUILD=1, CHROMIUM_PATH.
// Takes a few minutes (seeding a million tickets into PGlite is most of it); stops after 15 minutes.
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium, type Browser } from "@playwright/test";
import { openDatabase } from "../supabase/embedded";
import { buildSite, root, startSite, stopAfter, stopSite, waitForSite } from "./bench-support";

const dataDir = path.join(root, ".data", "bench-verify");
const port = Number(process.env.BENCH_PORT ?? 3300);
const backendPort = Number(process.env.BENCH_BACKEND_PORT ?? 54349);
const base = `http://127.0.0.1:${port}`;
const TOTAL = 1_000_000;
const SOLD = 999_996;
const POSTAL = 4;
const ORDERS = 10;
const HARD_LIMIT_MS = 15 * 60_000;

const begun = performance.now();
const stage = (what: string) =>
  console.error(`  ${((performance.now() - begun) / 1000).toFixed(1).padStart(6)} s  ${what}`);
const secondsSince = (t0: number) => (performance.now() - t0) / 1000;
const fmt = (s: number) => `${s.toFixed(2)} s`;

type DrawRow = {
  id: string;
  ticket_count: number;
  ticket_list_hash: string;
  winning_position: number;
  winning_number: number;
  winning_ticket_id: string;
};

/** Seeds a competition with `prizes` prizes and draws it; returns the slug, the first prize's draw and the SQL timings. */
async function seedAndDraw(prizes: number) {
  let t0 = performance.now();
  const db = await openDatabase({ dataDir });
  stage(`database made (migrations and demo seed) in ${fmt(secondsSince(t0))}`);
  try {
    const slug = `bench-million-${Date.now().toString(36)}`;
    const buyers = (
      await db.query<{ id: string }>(
        "select u.id from auth.users u join public.profiles p on p.id = u.id where u.email like '%@labcash.test' order by u.email limit 5",
      )
    ).rows.map((r) => r.id);
    if (buyers.length === 0) throw new Error("the demo seed has no users");

    t0 = performance.now();
    const competition = (
      await db.query<{ id: string }>(
        `insert into public.competitions (slug, title, summary, prize_description, prize_value, images, ticket_price,
           total_tickets, max_tickets_per_user, opens_at, closes_at, postal_deadline, draw_at, status, seed_commitment,
           published_at, tickets_sold, postal_tickets)
         values ($1, 'Benchmark: a million tickets', 'A benchmark of the verification page.', 'Nothing: a benchmark',
                 1000, '{/competitions/steam-deck-oled.svg}', 0.25, $2, $2, now() - interval '3 days',
                 now() - interval '2 hours', now() - interval '1 hour', now() - interval '1 hour', 'live',
                 repeat('0', 64), now() - interval '3 days', $3, $4)
         returning id`,
        [slug, TOTAL, SOLD, POSTAL],
      )
    ).rows[0].id;
    await db.query(
      "insert into public.competition_seeds (competition_id, seed) values ($1, extensions.gen_random_bytes(32))",
      [competition],
    );
    await db.query(
      `update public.competitions c set seed_commitment = encode(extensions.digest(s.seed, 'sha256'), 'hex')
         from public.competition_seeds s where s.competition_id = c.id and c.id = $1`,
      [competition],
    );
    const perOrder = Math.ceil(SOLD / ORDERS);
    for (let k = 0; k < ORDERS; k++) {
      const first = k * perOrder + 1;
      const quantity = Math.min(perOrder, SOLD - k * perOrder);
      await db.query(
        `with e as (
           insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
           values ($1, $2, 'paid', $3::integer, 0.25, $3::integer * 0.25, $4::integer) returning id, user_id)
         insert into public.tickets (competition_id, number, entry_id, user_id)
         select $1, n, e.id, e.user_id from e, generate_series($4::integer, $4::integer + $3::integer - 1) n`,
        [competition, buyers[k % buyers.length], quantity, first],
      );
    }
    for (let i = 0; i < POSTAL; i++) {
      await db.query(
        `with e as (
           insert into public.entries (competition_id, kind, quantity, unit_price, amount, first_ticket)
           values ($1, 'postal', 1, 0, 0, $2) returning id),
         p as (
           insert into public.postal_entries (competition_id, entry_id, name, address, postcode)
           select $1, e.id, $3, '1 High Street, Leeds LS1 4AP', 'LS1 4AP' from e)
         insert into public.tickets (competition_id, number, entry_id) select $1, $2, e.id from e`,
        [competition, TOTAL + 1 + i, `Postal Entrant${i + 1}`],
      );
    }
    for (let position = 2; position <= prizes; position++) {
      await db.query(
        "insert into public.competition_prizes (competition_id, position, description, value) values ($1, $2, $3, 100)",
        [competition, position, `Benchmark prize ${position}`],
      );
    }
    const seedSeconds = secondsSince(t0);
    stage(`${(SOLD + POSTAL).toLocaleString("en-GB")} tickets inserted in ${fmt(seedSeconds)}`);

    t0 = performance.now();
    const drawId = (
      await db.query<{ id: string }>("select private.draw_competition($1, 'draw_time') id", [competition])
    ).rows[0].id;
    const drawSeconds = secondsSince(t0);
    const draw = (
      await db.query<DrawRow>(
        `select id, ticket_count, ticket_list_hash, winning_position, winning_number, winning_ticket_id
           from public.draws where id = $1`,
        [drawId],
      )
    ).rows[0];
    stage(
      `${prizes} prize(s) drawn in ${fmt(drawSeconds)}: first at position ${draw.winning_position}, ticket #${draw.winning_number}`,
    );
    return { slug, draw, seedSeconds, drawSeconds };
  } finally {
    await db.close();
  }
}

function startApp(): ChildProcess {
  stage("building (next build) unless BENCH_SKIP_BUILD=1");
  buildSite();
  return startSite({ port, backendPort, dataDir, env: { SITE_URL: base } });
}

async function timedGet(url: string): Promise<{ seconds: number; bytes: number; body: Buffer; status: number }> {
  const t0 = performance.now();
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  return { seconds: secondsSince(t0), bytes: body.length, body, status: response.status };
}

/** Opens a draw's verification page in the browser and waits for its verdict: what the page measured. */
async function verifyInBrowser(browser: Browser, drawId: string) {
  const page = await browser.newPage();
  try {
    const t0 = performance.now();
    await page.goto(`${base}/winners/${drawId}`, { waitUntil: "domcontentloaded" });
    const pageSeconds = secondsSince(t0);
    const outcome = page
      .getByRole("status")
      .filter({ hasText: /This draw (checks out|does not check out)|could not run/ });
    await outcome.waitFor({ timeout: 10 * 60_000 });
    const wallSeconds = secondsSince(t0);
    const verdict = (await outcome.innerText()).trim();
    const timings = page.getByTestId("verify-timings");
    const downloadMs = Number(await timings.getAttribute("data-download-ms"));
    const totalMs = Number(await timings.getAttribute("data-total-ms"));
    const bytes = Number(await timings.getAttribute("data-bytes"));
    const failed = await page
      .getByRole("list", { name: "Checks" })
      .getByRole("listitem")
      .filter({ hasText: "fails" })
      .allInnerTexts();
    const verified = verdict.includes("This draw checks out") && failed.length === 0;
    return { pageSeconds, wallSeconds, verdict, downloadMs, totalMs, bytes, failed, verified };
  } finally {
    await page.close();
  }
}

async function main() {
  console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
  let app: ChildProcess | undefined;
  let browser: Browser | undefined;
  const guard = stopAfter(HARD_LIMIT_MS, "bench:verify", () => app);

  try {
    rmSync(dataDir, { recursive: true, force: true });
    const one = await seedAndDraw(1);
    const three = await seedAndDraw(3);
    const { slug, draw, seedSeconds, drawSeconds } = one;
    app = startApp();
    await waitForSite(`${base}/login`);
    stage("app ready");

    const entries = `${base}/competitions/${slug}/entries`;
    const csv = await timedGet(`${entries}/ticket-list.csv`);
    const csvHash = createHash("sha256").update(csv.body).digest("hex");
    stage(`ticket-list CSV downloaded by Node: ${(csv.bytes / 1e6).toFixed(1)} MB in ${fmt(csv.seconds)}`);
    const entrants = await timedGet(`${entries}/entrants.csv`);
    const pages = {
      first: await timedGet(entries),
      last: await timedGet(`${entries}?before=${TOTAL + POSTAL + 1}`),
      search: await timedGet(`${entries}?ticket=${draw.winning_number}`),
    };

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-sync"],
    });
    const single = await verifyInBrowser(browser, draw.id);
    stage(`one prize verified in the browser in ${fmt(single.totalMs / 1000)}`);
    const several = await verifyInBrowser(browser, three.draw.id);
    stage(`three prizes verified in the browser in ${fmt(several.totalMs / 1000)}`);
    const html = await (await fetch(`${base}/winners/${draw.id}`)).text();

    const verified = single.verified && several.verified;
    const rows: [string, string][] = [
      ["tickets in the draw (N)", draw.ticket_count.toLocaleString("en-GB")],
      ["seeding the tickets (SQL, not measured work)", fmt(seedSeconds)],
      ["draw in SQL (private.draw_competition: hash of the list + derivation)", fmt(drawSeconds)],
      ["  with three prizes", fmt(three.drawSeconds)],
      ["winning position / number", `${draw.winning_position} / #${draw.winning_number}`],
      [
        "ticket-list CSV, Node download (10 RPC chunks, streamed)",
        `${fmt(csv.seconds)}, ${(csv.bytes / 1e6).toFixed(1)} MB, HTTP ${csv.status}`,
      ],
      ["  its SHA-256 = the draw's ticket_list_hash", csvHash === draw.ticket_list_hash ? "yes" : "NO"],
      ["entrants CSV, Node download", `${fmt(entrants.seconds)}, ${(entrants.bytes / 1e6).toFixed(1)} MB`],
      [
        "entry list page: first / last page / search",
        [pages.first, pages.last, pages.search].map((p) => `${fmt(p.seconds)} (${p.status})`).join(" / "),
      ],
      [
        "verification page HTML",
        `${(html.length / 1e3).toFixed(0)} kB (list not embedded), DOMContentLoaded ${fmt(single.pageSeconds)}`,
      ],
      [
        "browser: CSV download (as the page measured it)",
        `${fmt(single.downloadMs / 1000)}, ${(single.bytes / 1e6).toFixed(1)} MB`,
      ],
      ["browser: verify total (download + hash + derive), one prize", fmt(single.totalMs / 1000)],
      ["browser: verify total, three prizes (every prize recomputed)", fmt(several.totalMs / 1000)],
      [
        "browser: page open to verdict, one prize / three prizes",
        `${fmt(single.wallSeconds)} / ${fmt(several.wallSeconds)}`,
      ],
      [
        "verified in the browser, one prize / three prizes",
        [single, several].map((r) => (r.verified ? "yes" : `NO: ${r.verdict} ${r.failed.join("; ")}`)).join(" / "),
      ],
    ];
    console.log(
      `\nbench:verify: labcash-draw-v2, embedded backend (PGlite) + next start, Chromium ${browser.version()}`,
    );
    for (const [name, value] of rows) console.log(`${name.padEnd(72)} ${value}`);
    console.log(`total ${fmt(secondsSince(begun))}`);
    if (!verified || csvHash !== draw.ticket_list_hash) process.exitCode = 1;
  } finally {
    await browser?.close();
    await stopSite(app);
    clearTimeout(guard);
  }
}

await main();
