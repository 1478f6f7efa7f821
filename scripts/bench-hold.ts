// npm run bench:hold: how long a tap on the number grid waits for the server's hold, with players picking at once.
//
// 1. A fresh embedded database in .data/bench-hold (every migration and the demo seed), then by SQL, before the clock
//    starts: BENCH_PICKERS approved players (insertApprovedPlayers) and a pick-your-numbers competition of 10,000
//    tickets made and published by the demo admin at aal2. The hold function alone is timed there too, 200 calls one
//    after another in the database (what SQL costs a tap, without HTTP or the site).
// 2. `npm start` on that data (the production build; built first unless BENCH_SKIP_BUILD=1 and one exists); every
//    picker signs in through the sign-in form's server action, from its own address.
// 3. Two timed phases in which every picker taps the grid, each tap the number grid's server action
//    (holdNumbersAction: the whole basket, as the grid sends it, answered with the grid's page), timed to its last byte:
//    - "picking": a player's pace, a tap, its answer, then 300–700 ms before the next (two taps a second or so,
//      faster than people choose numbers). The target: p50 ≤ 150 ms.
//    - "back to back": no pause, every picker always waiting on a hold: the most the site and backend can do.
//    Each picker adds numbers from its own hundred until its basket holds five, then takes the oldest out, so no hold
//    is refused for another's basket and every call writes.
// 4. Prints holds a second, p50, p95 and p99 of both, and exits 1 when a hold failed or the picking p50 is over 150 ms.
//
// Environment: BENCH_PICKERS (default 20), BENCH_SECONDS per phase (default 10), BENCH_PORT (3300), BENCH_BACKEND_PORT
// (54349), BENCH_SKIP_BUILD=1. Stops after BENCH_SECONDS × 2 plus three minutes from the build's end, whatever happens.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../supabase/embedded";
import { refuseE2eBuild } from "./bench-build-guard.mjs";
import {
  actionAnswer,
  actionRequestBody,
  benchSite,
  buildSite,
  CookieJar,
  insertApprovedPlayers,
  percentile,
  root,
  seeded,
  serverActionId,
  stageClock,
  startSite,
  stopAfter,
  stopSite,
  waitForSite,
} from "./bench-support";

const PICKERS = Number(process.env.BENCH_PICKERS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const { port, backendPort, base } = benchSite();
const dataDir = path.join(root, ".data", "bench-hold");
const PASSWORD = "LabCash-hold-1";
const TOTAL = 10_000;
/** A picker's basket grows to this many numbers, then its oldest goes as the next comes. */
const BASKET = 5;
/** A player's pause between taps: at least this, plus up to THINK_SPREAD_MS more. */
const THINK_MS = 300;
const THINK_SPREAD_MS = 400;
const TARGET_P50_MS = 150;
const SQL_CALLS = 200;
const HARD_LIMIT_MS = SECONDS * 2000 + 180_000;

const stage = stageClock();
const emails = Array.from({ length: PICKERS }, (_, i) => `picker-${i}@labcash.test`);

/** The competition, made and published by the demo admin at aal2 as the seed makes its own. */
async function prepare(db: PGlite): Promise<{ id: string; slug: string }> {
  await insertApprovedPlayers(db, emails, PASSWORD, 100);
  await db.exec(
    `do $$
     begin
       perform set_config('request.jwt.claims',
         '{"sub":"00000000-0000-4000-8000-000000000002","role":"authenticated","aal":"aal2"}', true);
       perform public.admin_publish_competition((public.admin_create_competition(jsonb_build_object(
         'title', 'Pick your numbers: the hold bench', 'slug', 'bench-hold',
         'summary', 'Made by npm run bench:hold.', 'description', 'Made by npm run bench:hold.',
         'prize_description', 'Nothing: a benchmark', 'prize_value', 1000.00,
         'images', jsonb_build_array('/competitions/iphone-17-pro-max.svg'), 'ticket_price', 0.99,
         'total_tickets', ${TOTAL}, 'max_tickets_per_user', 100, 'ticket_numbering', 'pick',
         'closes_at', now() + interval '2 days', 'skill_question', 'How many sides has a triangle?',
         'skill_options', jsonb_build_array('Three', 'Four'), 'skill_answer', 'Three'))).id);
       perform set_config('request.jwt.claims', '', true);
     end
     $$;`,
  );
  const { rows } = await db.query<{ id: string; slug: string }>(
    "select id, slug from public.competitions where slug = 'bench-hold'",
  );
  return rows[0];
}

/** The hold function alone, one call after another in the database: a basket changing as a picker's does. */
async function sqlHoldTimes(db: PGlite, competitionId: string): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>("select id from auth.users where email = $1", [emails[0]]);
  await db.query("select set_config('request.jwt.claims', $1, false)", [
    JSON.stringify({ sub: rows[0].id, role: "authenticated", aal: "aal1" }),
  ]);
  const basket: number[] = [];
  const times: number[] = [];
  for (let tap = 0; tap < SQL_CALLS; tap++) {
    nextBasket(basket, 9_000, tap);
    const t0 = performance.now();
    await db.query("select public.hold_ticket_numbers($1, $2::int[], 0, 9001, 9100)", [competitionId, basket]);
    times.push(performance.now() - t0);
  }
  await db.query("select public.hold_ticket_numbers($1, '{}'::int[])", [competitionId]);
  await db.query("select set_config('request.jwt.claims', '', false)");
  return times;
}

/** A tap: the next number of the picker's hundred joins the basket, and the oldest leaves once it holds BASKET. */
function nextBasket(basket: number[], offset: number, tap: number) {
  if (basket.length >= BASKET) basket.shift();
  basket.push(offset + (tap % 100) + 1);
}

class Picker {
  readonly cookies = new CookieJar();
  private readonly basket: number[] = [];
  private taps = 0;

  constructor(
    readonly index: number,
    private readonly ids: { signIn: string; hold: string },
    private readonly competition: { id: string; slug: string },
  ) {}

  private async action(url: string, id: string, fields: [string, string][]) {
    const response = await fetch(`${base}${url}`, {
      method: "POST",
      body: await actionRequestBody(fields),
      redirect: "manual",
      headers: {
        accept: "text/x-component",
        "next-action": id,
        origin: base,
        "x-forwarded-for": `10.1.${this.index >> 8}.${this.index & 255}`,
        ...this.cookies.header(),
      },
    });
    const body = await response.text();
    this.cookies.keep(response);
    return { response, answer: actionAnswer(body) };
  }

  async signIn() {
    const url = `/competitions/${this.competition.slug}`;
    await this.action(`/login?next=${encodeURIComponent(url)}`, this.ids.signIn, [
      ["email", emails[this.index]],
      ["password", PASSWORD],
      ["next", url],
    ]);
    if (!this.cookies.signedIn()) throw new Error(`${emails[this.index]} could not sign in`);
  }

  /** One tap on the grid; its time to the answer's last byte, or the reason it failed. */
  async tap(): Promise<number | string> {
    const offset = this.index * 100;
    nextBasket(this.basket, offset, this.taps++);
    const t0 = performance.now();
    const { response, answer } = await this.action(`/competitions/${this.competition.slug}`, this.ids.hold, [
      ["competitionId", this.competition.id],
      ...this.basket.map((n): [string, string] => ["numbers", String(n)]),
      ["luckyDip", "0"],
      ["from", String(offset + 1)],
      ["to", String(offset + 100)],
    ]);
    const ms = performance.now() - t0;
    if (!response.ok) return `HTTP ${response.status}`;
    if (!answer) return "no answer";
    return answer.ok ? ms : `refused: ${answer.code ?? answer.error}`;
  }
}

type Phase = { name: string; latencies: number[]; errors: string[]; seconds: number };

async function measure(name: string, pickers: Picker[], think: boolean): Promise<Phase> {
  const phase: Phase = { name, latencies: [], errors: [], seconds: 0 };
  const random = seeded(40);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    pickers.map(async (picker) => {
      while (performance.now() < deadline) {
        const outcome = await picker.tap();
        if (typeof outcome === "number") phase.latencies.push(outcome);
        else phase.errors.push(outcome);
        if (think) await new Promise((r) => setTimeout(r, THINK_MS + random() * THINK_SPREAD_MS));
      }
    }),
  );
  phase.seconds = (performance.now() - started) / 1000;
  return phase;
}

const ms = (n: number) => n.toFixed(1).padStart(8);

async function main() {
  console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
  let site: ChildProcess | undefined;
  let guard: NodeJS.Timeout | undefined;
  try {
    buildSite();
    guard = stopAfter(HARD_LIMIT_MS, "bench:hold", () => site);
    const ids = {
      signIn: serverActionId("lib/actions/auth.ts", "signIn"),
      hold: serverActionId("lib/actions/competitions.ts", "holdNumbersAction"),
    };
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(path.dirname(dataDir), { recursive: true });
    const db = await openDatabase({ dataDir });
    let competition: { id: string; slug: string };
    let sqlTimes: number[];
    try {
      competition = await prepare(db);
      sqlTimes = (await sqlHoldTimes(db, competition.id)).sort((a, b) => a - b);
    } finally {
      await db.close();
    }
    stage(`${PICKERS} players approved; a pick competition of ${TOTAL.toLocaleString("en-GB")} tickets`);

    site = startSite({
      port,
      backendPort,
      dataDir,
      env: { SITE_URL: base, CLIENT_ADDRESS_HEADER: "x-forwarded-for" },
    });
    await waitForSite(`${base}/login`);
    await refuseE2eBuild(base);
    const pickers = emails.map((_, i) => new Picker(i, ids, competition));
    for (const picker of pickers) await picker.signIn();
    // One tap each before the clock, so neither phase pays for a first call.
    for (const picker of pickers) {
      const outcome = await picker.tap();
      if (typeof outcome !== "number") throw new Error(`a first hold failed: ${outcome}`);
    }
    stage(`${PICKERS} pickers signed in; the clock starts`);

    const phases = [await measure("picking", pickers, true), await measure("back to back", pickers, false)];
    console.log(
      `\nbench:hold: ${PICKERS} players tapping the number grid of the production build on the embedded backend ` +
        `(PGlite); ${SECONDS} s a phase; each tap is holdNumbersAction, timed to its answer's last byte`,
    );
    console.log(
      `${"".padEnd(34)} ${"holds".padStart(6)} ${"per s".padStart(7)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ` +
        `${"p99 ms".padStart(8)} ${"errors".padStart(6)}`,
    );
    for (const p of phases) {
      const sorted = [...p.latencies].sort((a, b) => a - b);
      const label =
        p.name === "picking" ? `picking (${THINK_MS}–${THINK_MS + THINK_SPREAD_MS} ms between taps)` : p.name;
      console.log(
        `${label.padEnd(34)} ${String(sorted.length).padStart(6)} ${(sorted.length / p.seconds).toFixed(1).padStart(7)} ` +
          `${ms(percentile(sorted, 50))} ${ms(percentile(sorted, 95))} ${ms(percentile(sorted, 99))} ${String(p.errors.length).padStart(6)}`,
      );
      if (p.errors.length > 0) console.log(`  first error: ${p.errors[0]}`);
    }
    console.log(
      `hold_ticket_numbers alone in the database, ${SQL_CALLS} calls one after another: p50 ${percentile(sqlTimes, 50).toFixed(1)} ms, ` +
        `p95 ${percentile(sqlTimes, 95).toFixed(1)} ms`,
    );
    const picking = [...phases[0].latencies].sort((a, b) => a - b);
    const p50 = percentile(picking, 50);
    const met = p50 <= TARGET_P50_MS;
    console.log(`picking p50 ${p50.toFixed(1)} ms ≤ ${TARGET_P50_MS} ms: ${met ? "yes" : "NO"}`);
    console.log(`total ${stage.seconds().toFixed(1)} s`);
    if (!met || phases.some((p) => p.errors.length > 0)) process.exitCode = 1;
  } finally {
    await stopSite(site);
    clearTimeout(guard);
  }
}

await main();
