// npm run bench:launch: a launch night replayed against the production build on the embedded backend.
//
// 1. A fresh embedded database in .data/bench-launch (every migration and the demo seed), then by SQL, before the
//    clock starts: BENCH_PLAYERS approved players with £100 of credit each (the seed's way: auth.users rows, approval,
//    private.post_ledger), and two launch competitions made and published through the admin functions as the seed
//    makes its own: a hot one numbered in order, sized to sell out near the end of the run, and a pick-your-numbers
//    one bought by lucky dip.
// 2. `npm start` on that data (the site and its backend in one process group), each player from its own address
//    (X-Forwarded-For, as a proxy writes it), so per-visitor limits count each player once as in production.
// 3. The players arrive evenly over BENCH_SECONDS and each does what a phone does: loads the home page and the
//    competition page, signs in (the sign-in form's server action, which answers with the page it redirects to),
//    fetches the signed-in islands, on the pick competition takes a lucky dip (the number grid's action), and buys
//    (the entry form's action, made durable before it answers). Quantities are mixed; the plan is seeded, so two
//    runs replay the same launch.
// 4. Reports purchases a second, p50/p99 per step, errors by kind, then stops the site and checks in SQL that
//    nothing was oversold: tickets sold equal the tickets table, no number twice or out of range, every balance at
//    or above zero and equal to its ledger, and every purchase answered is an entry (a purchase whose answer never
//    reached the player may be one too).
//
// Environment: BENCH_PLAYERS (default 1000), BENCH_SECONDS (arrivals spread over, default 60), BENCH_PORT (3300),
// BENCH_BACKEND_PORT (54349), BENCH_SKIP_BUILD=1. A smoke run: BENCH_PLAYERS=20 BENCH_SECONDS=5. A player stops at
// its first failed step and starts none two minutes after the last arrival; the whole run stops after BENCH_SECONDS
// plus seven minutes from the build's end, whatever happens.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "../supabase/embedded";
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
  type ActionAnswer,
} from "./bench-support";
import { refuseE2eBuild } from "./bench-build-guard.mjs";

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const { port, backendPort, base } = benchSite();
const dataDir = path.join(root, ".data", "bench-launch");
const PASSWORD = "LabCash-launch-1";
const CREDIT = 100;
/** A player gives up on a request after this long. */
const REQUEST_TIMEOUT_MS = 30_000;
/** After the last arrival, players have this long to finish; a step not started by then is counted, not made. */
const DRAIN_MS = 120_000;
/** From the build's end: setting up, the run, its drain, stopping and the checks. */
const HARD_LIMIT_MS = SECONDS * 1000 + DRAIN_MS + 300_000;
/** Share of players on the pick competition; the rest buy on the hot one. */
const PICK_SHARE = 0.3;
/** How many tickets a player buys, and how often: most buy a few, some many. */
const QUANTITIES: [quantity: number, weight: number][] = [
  [1, 30],
  [2, 20],
  [5, 25],
  [10, 15],
  [25, 10],
];
/** The hot competition holds this share of what its players ask for, so it sells out near the end of the run. */
const HOT_SUPPLY = 0.9;
/** The phone the players hold: the site treats a request by its user agent (bots, lib/bots.ts). */
const USER_AGENT =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

const stage = stageClock();

// ---- The plan ----------------------------------------------------------------------------------------------------

type Player = { index: number; email: string; address: string; pick: boolean; quantity: number };

function plan(): Player[] {
  const random = seeded(41);
  const total = QUANTITIES.reduce((sum, [, weight]) => sum + weight, 0);
  return Array.from({ length: PLAYERS }, (_, index) => {
    const pick = random() < PICK_SHARE;
    let roll = random() * total;
    const [quantity] = QUANTITIES.find(([, weight]) => (roll -= weight) < 0) ?? QUANTITIES[0];
    // 10.x.y.z: one address per player, as many phones on many networks are.
    const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
    return { index, email: `launch-${index}@labcash.test`, address, pick, quantity };
  });
}

// ---- The database before the clock starts ---------------------------------------------------------------------------

type LaunchCompetition = { id: string; slug: string; answer: string; total: number };

/**
 * The players, approved and given credit as the seed writes its demo users (insertApprovedPlayers); and the two launch
 * competitions, made and published by the demo admin at aal2.
 */
async function prepare(db: PGlite, players: Player[]) {
  await insertApprovedPlayers(
    db,
    players.map((p) => p.email),
    PASSWORD,
    CREDIT,
  );

  const hotDemand = players.filter((p) => !p.pick).reduce((sum, p) => sum + p.quantity, 0);
  const pickDemand = players.filter((p) => p.pick).reduce((sum, p) => sum + p.quantity, 0);
  const hotTotal = Math.max(1, Math.floor(hotDemand * HOT_SUPPLY));
  // Room to spare: a lucky dip on a nearly full grid is a different bench (bench:onsale's 90 % sold).
  const pickTotal = Math.max(100, pickDemand * 3);
  const competition = (slug: string, title: string, total: number, numbering: string, answer: string) =>
    `(public.admin_create_competition(jsonb_build_object(
       'title', '${title}', 'slug', '${slug}', 'summary', 'A launch night, replayed by npm run bench:launch.',
       'description', 'Made by the launch bench.', 'prize_description', 'Nothing: a benchmark',
       'prize_value', 1000.00, 'images', jsonb_build_array('/competitions/iphone-17-pro-max.svg'),
       'ticket_price', 0.99, 'total_tickets', ${total}, 'max_tickets_per_user', ${Math.min(total, 100)},
       'ticket_numbering', '${numbering}', 'closes_at', now() + interval '2 days',
       'skill_question', 'How many sides has a triangle?',
       'skill_options', jsonb_build_array('Three', 'Four', 'Five'), 'skill_answer', '${answer}'))).id`;
  await db.exec(
    `do $$
     declare hot uuid; picked uuid;
     begin
       perform set_config('request.jwt.claims',
         '{"sub":"00000000-0000-4000-8000-000000000002","role":"authenticated","aal":"aal2"}', true);
       hot := ${competition("launch-night-hot", "Launch night: the hot one", hotTotal, "in_order", "Three")};
       picked := ${competition("launch-night-pick", "Launch night: pick your numbers", pickTotal, "pick", "Three")};
       perform public.admin_publish_competition(c) from unnest(array[hot, picked]) c;
       perform set_config('request.jwt.claims', '', true);
     end
     $$;`,
  );
  const rows = (
    await db.query<{ id: string; slug: string; total_tickets: number }>(
      "select id, slug, total_tickets from public.competitions where slug like 'launch-night-%'",
    )
  ).rows;
  const bySlug = (slug: string): LaunchCompetition => {
    const row = rows.find((r) => r.slug === slug);
    if (!row) throw new Error(`the launch competition ${slug} was not made`);
    return { id: row.id, slug: row.slug, answer: "Three", total: row.total_tickets };
  };
  return { hot: bySlug("launch-night-hot"), pick: bySlug("launch-night-pick") };
}

// ---- A player's requests --------------------------------------------------------------------------------------------

/** The site's server actions the players call, by their ids in the build. */
function actionIds() {
  return {
    signIn: serverActionId("lib/actions/auth.ts", "signIn"),
    hold: serverActionId("lib/actions/competitions.ts", "holdNumbersAction"),
    enter: serverActionId("lib/actions/competitions.ts", "enterCompetitionAction"),
  };
}

const STEPS = [
  "home",
  "competition page",
  "sign-in",
  "header (island)",
  "entry panel (island)",
  "number grid (island)",
  "lucky dip",
  "purchase",
] as const;
type Step = (typeof STEPS)[number];

type Outcome = { step: Step; ms: number; ok: boolean; kind?: string };

/** How a visit that reached the purchase ended. */
type PurchaseEnd = "answered" | "unanswered" | "refused";

class Visitor {
  private readonly cookies = new CookieJar();
  readonly outcomes: Outcome[] = [];

  constructor(
    private readonly player: Player,
    private readonly stopBy: number,
  ) {}

  private headers(extra: Record<string, string> = {}) {
    return {
      "user-agent": USER_AGENT,
      "x-forwarded-for": this.player.address,
      ...this.cookies.header(),
      ...extra,
    };
  }

  /** One request, timed to its last byte; an answer other than `accept(status, body)` is an error of its kind. */
  private async request(
    step: Step,
    url: string,
    init: RequestInit,
    accept: (response: Response, body: string) => string | null,
  ): Promise<string | null> {
    const t0 = performance.now();
    if (t0 > this.stopBy) {
      this.outcomes.push({ step, ms: 0, ok: false, kind: "not started: the run's time was up" });
      return null;
    }
    let kind: string | null;
    let body: string | null = null;
    try {
      const response = await fetch(`${base}${url}`, {
        ...init,
        redirect: "manual",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      body = await response.text();
      this.cookies.keep(response);
      kind = accept(response, body);
    } catch (error) {
      const cause = error instanceof Error ? (error.cause as { code?: string } | undefined)?.code : undefined;
      kind =
        error instanceof Error && error.name === "TimeoutError"
          ? `timed out after ${REQUEST_TIMEOUT_MS / 1000} s`
          : `connection failed${cause ? ` (${cause})` : ""}`;
    }
    this.outcomes.push({ step, ms: performance.now() - t0, ok: kind === null, ...(kind ? { kind } : {}) });
    return kind === null ? body : null;
  }

  private page(step: Step, url: string) {
    return this.request(step, url, { headers: this.headers() }, (r) => (r.ok ? null : `HTTP ${r.status}`));
  }

  /** A server action posted as the browser posts it: (previous state, the form's fields). */
  private async action(step: Step, pageUrl: string, id: string, fields: [string, string][]) {
    const body = await actionRequestBody(fields);
    let answer: ActionAnswer | null = null;
    await this.request(
      step,
      pageUrl,
      { method: "POST", body, headers: this.headers({ accept: "text/x-component", "next-action": id, origin: base }) },
      (response, text) => {
        if (!response.ok) return `HTTP ${response.status}`;
        answer = actionAnswer(text);
        if (!answer) return response.headers.has("x-action-redirect") ? null : "no answer";
        return answer.ok ? null : `refused: ${answer.code ?? answer.error}`;
      },
    );
    return answer as ActionAnswer | null;
  }

  /** The whole visit; stops at the first step that fails, as a player would be stuck there. */
  async visit(competition: LaunchCompetition, ids: ReturnType<typeof actionIds>): Promise<PurchaseEnd | null> {
    const url = `/competitions/${competition.slug}`;
    if ((await this.page("home", "/")) === null) return null;
    if ((await this.page("competition page", url)) === null) return null;
    const signIn = `/login?next=${encodeURIComponent(url)}`;
    await this.action("sign-in", signIn, ids.signIn, [
      ["email", this.player.email],
      ["password", PASSWORD],
      ["next", url],
    ]);
    if (!this.cookies.signedIn()) {
      this.markLast("no session");
      return null;
    }
    // The signed-in page's islands, fetched together as the browser does once the page has loaded.
    const islands = await Promise.all([
      this.page("header (island)", "/api/session/header"),
      this.page("entry panel (island)", `/api/competitions/${competition.slug}/personal`),
      ...(this.player.pick
        ? [this.page("number grid (island)", `/api/competitions/${competition.slug}/numbers?from=1&to=100`)]
        : []),
    ]);
    if (islands.includes(null)) return null;
    const quantity = this.player.quantity;
    let numbers: string[] = [];
    if (this.player.pick) {
      const held = await this.action("lucky dip", url, ids.hold, [
        ["competitionId", competition.id],
        ["luckyDip", String(quantity)],
        ["from", "1"],
        ["to", "100"],
      ]);
      if (!held?.ok) return null;
      numbers = ((held.data as { mine?: number[] }).mine ?? []).map(String);
    }
    const bought = await this.action("purchase", url, ids.enter, [
      ["competitionId", competition.id],
      ["quantity", String(numbers.length || quantity)],
      ["answer", competition.answer],
      ...numbers.map((n): [string, string] => ["numbers", n]),
    ]);
    if (bought?.ok) return "answered";
    // No answer reached the player: the purchase may have been made (the entry form then says to check My Entries).
    return /^(timed out|connection failed)/.test(this.outcomes.at(-1)?.kind ?? "") ? "unanswered" : "refused";
  }

  private markLast(kind: string) {
    const last = this.outcomes.at(-1);
    if (last && last.ok) Object.assign(last, { ok: false, kind });
  }
}

// ---- Where the CPU went ---------------------------------------------------------------------------------------------

/**
 * CPU seconds used so far by each process of the site's group, by role: the launcher serves Next in its own process,
 * the embedded backend (auth, the database API and PGlite) is its child. Read from Linux's /proc; none elsewhere.
 */
function siteCpu(group: number): Map<string, number> {
  const byRole = new Map<string, number>();
  let pids: string[] = [];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return byRole;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== group) continue;
      const role =
        Number(pid) === group
          ? "site (Next)"
          : readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("embedded.ts")
            ? "embedded backend"
            : "other";
      byRole.set(role, (byRole.get(role) ?? 0) + (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch {
      // the process ended while it was read
    }
  }
  return byRole;
}
/** Linux's USER_HZ, the unit of /proc's CPU times, on every architecture it runs on. */
const CLOCK_TICKS = 100;

// ---- The checks after the run ---------------------------------------------------------------------------------------

async function checks(db: PGlite, competitions: LaunchCompetition[], ends: Map<string, Map<PurchaseEnd, number>>) {
  const results: [string, boolean, string][] = [];
  for (const c of competitions) {
    const answered = ends.get(c.id)?.get("answered") ?? 0;
    const unanswered = ends.get(c.id)?.get("unanswered") ?? 0;
    const row = (
      await db.query<{
        sold: number;
        total: number;
        tickets: number;
        distinct_numbers: number;
        out_of_range: number;
        entries: number;
        entry_tickets: number;
      }>(
        `select c.tickets_sold sold, c.total_tickets total,
                (select count(*)::int from public.tickets t where t.competition_id = c.id) tickets,
                (select count(distinct t.number)::int from public.tickets t where t.competition_id = c.id) distinct_numbers,
                (select count(*)::int from public.tickets t where t.competition_id = c.id
                   and not t.number between 1 and c.total_tickets) out_of_range,
                (select count(*)::int from public.entries e where e.competition_id = c.id) entries,
                (select coalesce(sum(e.quantity), 0)::int from public.entries e where e.competition_id = c.id) entry_tickets
           from public.competitions c where c.id = $1`,
        [c.id],
      )
    ).rows[0];
    results.push(
      [
        `${c.slug}: tickets sold ${row.sold} = tickets table ${row.tickets} = entries' tickets ${row.entry_tickets} ≤ ${row.total}`,
        row.sold === row.tickets && row.tickets === row.entry_tickets && row.sold <= row.total,
        "",
      ],
      [
        `${c.slug}: no number twice (${row.distinct_numbers} distinct of ${row.tickets}), none out of range (${row.out_of_range})`,
        row.distinct_numbers === row.tickets && row.out_of_range === 0,
        "",
      ],
      [
        `${c.slug}: purchases answered ${answered} ≤ entries made ${row.entries} ≤ answered + unanswered ${answered + unanswered}`,
        answered <= row.entries && row.entries <= answered + unanswered,
        "",
      ],
    );
  }
  const balances = (
    await db.query<{ below_zero: number; off_ledger: number; off_spend: number; players: number }>(
      `select count(*) filter (where a.credits < 0)::int below_zero,
              count(*) filter (where a.credits <> (select coalesce(sum(l.amount), 0) from public.credit_ledger l
                                                    where l.user_id = a.id))::int off_ledger,
              count(*) filter (where a.credits <> $1 - (select coalesce(sum(e.amount), 0) from public.entries e
                                                         where e.user_id = a.id))::int off_spend,
              count(*)::int players
         from public.user_account_data a join auth.users u on u.id = a.id
        where u.email like 'launch-%@labcash.test'`,
      [CREDIT],
    )
  ).rows[0];
  results.push(
    [`balances below zero: ${balances.below_zero} of ${balances.players}`, balances.below_zero === 0, ""],
    [
      `balances not equal to their ledger: ${balances.off_ledger}; to £${CREDIT} less their entries: ${balances.off_spend}`,
      balances.off_ledger === 0 && balances.off_spend === 0,
      "",
    ],
  );
  return results;
}

// ---- The run --------------------------------------------------------------------------------------------------------

async function main() {
  console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
  let site: ChildProcess | undefined;
  let guard: NodeJS.Timeout | undefined;

  const players = plan();
  try {
    buildSite();
    guard = stopAfter(HARD_LIMIT_MS, "bench:launch", () => site);
    const ids = actionIds();
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(path.dirname(dataDir), { recursive: true });
    let db = await openDatabase({ dataDir });
    const launch = await prepare(db, players).finally(() => db.close());
    stage(
      `${PLAYERS} players approved with £${CREDIT} each; ${launch.hot.total} hot tickets, ${launch.pick.total} to pick`,
    );

    site = startSite({
      port,
      backendPort,
      dataDir,
      env: { SITE_URL: base, CLIENT_ADDRESS_HEADER: "x-forwarded-for" },
    });
    await waitForSite(`${base}/login`);
    await refuseE2eBuild(base);
    // A first visitor to each page, before the clock: the build's prerendered pages (no backend then) are replaced.
    for (const url of ["/", `/competitions/${launch.hot.slug}`, `/competitions/${launch.pick.slug}`]) {
      for (let i = 0; i < 3; i++) await (await fetch(`${base}${url}`)).arrayBuffer();
    }
    stage("site ready; the clock starts");

    const ends = new Map<string, Map<PurchaseEnd, number>>();
    const load = loadavg()[0];
    const cpuBefore = siteCpu(site.pid!);
    const ownCpuBefore = process.cpuUsage();
    const clock = performance.now();
    const visitors = players.map((p) => new Visitor(p, clock + SECONDS * 1000 + DRAIN_MS));
    const gap = (SECONDS * 1000) / PLAYERS;
    await Promise.all(
      visitors.map(async (visitor, i) => {
        await new Promise((r) => setTimeout(r, i * gap));
        const competition = players[i].pick ? launch.pick : launch.hot;
        const end = await visitor.visit(competition, ids);
        if (!end) return;
        const tally = ends.get(competition.id) ?? new Map<PurchaseEnd, number>();
        ends.set(competition.id, tally.set(end, (tally.get(end) ?? 0) + 1));
      }),
    );
    const wall = (performance.now() - clock) / 1000;
    const cpu = [...siteCpu(site.pid!)].map(([role, seconds]): [string, number] => [
      role,
      seconds - (cpuBefore.get(role) ?? 0),
    ]);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    cpu.push(["this load generator", (ownCpu.user + ownCpu.system) / 1e6]);
    stage(`every player done after ${wall.toFixed(1)} s; stopping the site`);
    await stopSite(site);
    site = undefined;

    report(visitors, wall, load, cpu);
    db = await openDatabase({ dataDir });
    const results = await checks(db, [launch.hot, launch.pick], ends).finally(() => db.close());
    console.log("\nchecked in SQL after the run:");
    for (const [what, held] of results) console.log(`  ${held ? "yes" : "NO "}  ${what}`);
    const errors = visitors.flatMap((v) => v.outcomes).filter((o) => !o.ok && !expectedRefusal(o));
    console.log(`total ${stage.seconds().toFixed(1)} s`);
    if (results.some(([, held]) => !held) || errors.length > 0) process.exitCode = 1;
  } finally {
    await stopSite(site);
    clearTimeout(guard);
  }
}

/** The hot competition sells out by design: a later buyer is refused, which is the site working. */
const expectedRefusal = (o: Outcome) =>
  o.step === "purchase" && (o.kind === "refused: competition_sold_out" || o.kind === "refused: not_enough_tickets");

function report(visitors: Visitor[], wall: number, load: number, cpu: [string, number][]) {
  const outcomes = visitors.flatMap((v) => v.outcomes);
  const purchases = outcomes.filter((o) => o.step === "purchase" && o.ok).length;
  console.log(
    `\nbench:launch: ${PLAYERS} players arriving over ${SECONDS} s against the production build on the embedded ` +
      `backend (PGlite); every player done after ${wall.toFixed(1)} s; load average ${load.toFixed(1)} at the start`,
  );
  console.log(
    `purchases: ${purchases}, ${(purchases / wall).toFixed(1)} a second over the run ` +
      `(players arrived at ${(PLAYERS / SECONDS).toFixed(1)} a second)`,
  );
  console.log(
    `${"step".padEnd(24)}${"ok".padStart(7)}${"failed".padStart(8)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`,
  );
  for (const step of STEPS) {
    const mine = outcomes.filter((o) => o.step === step);
    if (mine.length === 0) continue;
    const sorted = mine.map((o) => o.ms).sort((a, b) => a - b);
    const ok = mine.filter((o) => o.ok).length;
    console.log(
      `${step.padEnd(24)}${String(ok).padStart(7)}${String(mine.length - ok).padStart(8)}` +
        `${percentile(sorted, 50).toFixed(0).padStart(9)}${percentile(sorted, 99).toFixed(0).padStart(9)}`,
    );
  }
  const kinds = new Map<string, number>();
  for (const o of outcomes.filter((o) => !o.ok)) {
    const key = `${o.step}: ${o.kind}${expectedRefusal(o) ? " (sold out: expected)" : ""}`;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  console.log(`CPU seconds during the run (${navigator.hardwareConcurrency} cores, shared with whatever else runs):`);
  for (const [role, seconds] of cpu)
    console.log(
      `  ${role.padEnd(22)}${seconds.toFixed(1).padStart(7)} s  ${((seconds / PLAYERS) * 1000).toFixed(0).padStart(5)} ms a player` +
        (purchases > 0 ? `  ${((seconds / purchases) * 1000).toFixed(0).padStart(5)} ms a purchase` : ""),
    );
  console.log(kinds.size === 0 ? "errors: none" : "errors by kind:");
  for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(count).padStart(5)}  ${kind}`);
}

await main();
