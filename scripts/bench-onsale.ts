// npm run bench:onsale: how many ticket purchases a hot competition takes on PostgreSQL 15.
//
// Starts a throwaway PostgreSQL 15 cluster (Debian's postgresql-15, as the db tests do) with the
// server's default durability (fsync, synchronous_commit and full_page_writes on: every commit
// waits for its WAL flush, as on hosted Supabase), applies the Supabase shim and the migrations,
// and makes 1,000 approved buyers with credit and 21 live competitions through the admin RPCs. Then
// pgbench (Debian's) runs transactions shaped like PostgREST's: BEGIN; set_config of the role and
// request.jwt.claims for a random buyer; the RPC; COMMIT. A purchase is two of them, as the app
// makes it: enter_competition (one ticket), which commits without waiting for its flush, then
// make_entries_durable, which commits synchronously (where the migrations have it: not --compare's
// baseline); its latency is both. Each purchase phase runs beside a trivial *writing* RPC phase at
// the same concurrency in the same run: bench.write_anchor(), made by the bench
// on its own cluster, inserts one row and commits, so it waits for the same WAL flush a purchase
// does and is the honest ceiling (a read-only RPC never flushes). Phases: one hot competition at 1,
// 50 and 200 concurrent buyers, then 20 competitions at 50; then, at 50, two pick competitions of
// 100,000 tickets: lucky dips on one already 90% sold (random numbers
// scattered), and chosen numbers (each buyer's own, so none collide) on the other; then an in-order
// competition of 20,000 tickets with 2,000 credit instant wins. Prints purchases
// per second and p50/p99 latency over the phase's warm window (after every pgbench session's first
// call: PostgREST's connections are long-lived, so a cold session's first call is not what a launch
// sees), the window's length, the ratio to the write anchor, the targets with met/MISSED, the
// writes per in-order purchase (WAL records and bytes, rows and index entries, from pg_stat_wal,
// pg_current_wal_lsn and pg_stat_user_tables deltas over the hot 50-buyer phase, the durability
// call's included), and checks that nothing oversold, that ticket numbers are 1..sold with no gaps
// or duplicates (in order) or distinct within 1..N (pick), that the purchases pgbench counted equal
// the tickets sold, that every winning number sold was awarded exactly once (and nothing else was),
// and that every balance equals its ledger.
//
// --compare also measures the purchase path as it was before the purchase-concurrency
// migration (every migration before it), in its own cluster, and prints both.
// Environment: BENCH_SECONDS per phase (default 5), PG15_BIN (default /usr/lib/postgresql/15/bin),
// BENCH_PROFILE=1 to print the SQL functions that took the most time (track_functions; slower).
// Bounded: the run stops after 6 minutes whatever happens.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chown, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { shimFile } from "@labcash/embedded-supabase/db";
import { migrationsDir } from "../supabase/embedded";
import { percentile } from "./bench-support";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PG15_BIN = process.env.PG15_BIN ?? "/usr/lib/postgresql/15/bin";
const PROFILE = process.env.BENCH_PROFILE === "1";
const BUYERS = 1_000;
const SPREAD = 20;
const HARD_LIMIT_MS = 6 * 60_000;
/** The migration this bench was written for: --compare's baseline is every migration before it. */
const CONCURRENCY_MIGRATION = "20261123160000";

type Cluster = { dir: string; port: number; config: pg.ClientConfig; stop: () => Promise<void> };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** initdb, postgres and pgbench's log files: as root, they run as the `postgres` user. */
async function serviceAccount(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const line = (await readFile("/etc/passwd", "utf8")).split("\n").find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("running as root needs the `postgres` system user (Debian's postgresql-15 makes it)");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function run(
  cmd: string,
  args: string[],
  options: { account?: { uid: number; gid: number }; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      ...options.account,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C", ...options.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A cluster with the server's default durability; only the connection limit is raised (200 buyers). */
async function startCluster(): Promise<Cluster> {
  for (const bin of ["initdb", "postgres", "pgbench"]) {
    if (!existsSync(path.join(PG15_BIN, bin))) {
      throw new Error(`${path.join(PG15_BIN, bin)} does not exist: apt-get install -y postgresql-15 (or set PG15_BIN)`);
    }
  }
  const account = await serviceAccount();
  const dir = await mkdtemp(path.join(os.tmpdir(), "labcash-onsale-"));
  if (account) await chown(dir, account.uid, account.gid);
  const dataDir = path.join(dir, "data");
  const init = await run(
    path.join(PG15_BIN, "initdb"),
    ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-instructions"],
    { account },
  );
  if (init.code !== 0) throw new Error(`initdb failed:\n${init.stderr}`);
  const port = await freePort();
  const server = spawn(
    path.join(PG15_BIN, "postgres"),
    [
      ...["-D", dataDir, "-p", String(port), "-k", dir, "-c", "listen_addresses=", "-c", "max_connections=260"],
      ...(PROFILE ? ["-c", "track_functions=all"] : []),
    ],
    { ...account, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_ALL: "C" } },
  );
  const kill = () => server.kill("SIGKILL");
  process.once("exit", kill);
  await new Promise<void>((resolve, reject) => {
    let log = "";
    server.stderr!.on("data", (d: Buffer) => {
      log += d;
      if (log.includes("database system is ready to accept connections")) resolve();
    });
    server.once("exit", (code) => reject(new Error(`postgres exited (${code}):\n${log}`)));
  });
  return {
    dir,
    port,
    config: { host: dir, port, user: "postgres", database: "postgres" },
    async stop() {
      process.off("exit", kill);
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGINT"); // fast shutdown: the bench's clients are gone
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The shim and the migrations, in order; `before` stops at the first migration from that version. */
async function migrate(client: pg.Client, before?: string): Promise<string> {
  await client.query(await readFile(shimFile, "utf8"));
  const files = (await readdir(migrationsDir))
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .filter((f) => before === undefined || f < before);
  for (const file of files) {
    await client.query("begin");
    await client.query(await readFile(path.join(migrationsDir, file), "utf8"));
    await client.query("commit");
  }
  return files.at(-1)!;
}

/** Numbers per pgbench client on the picked-numbers phase: each client picks its own block, so none collide. */
const PICK_BLOCK = 2_000;
const PICK_TOTAL = 100_000;

/** The instant-win phase's competition: few tickets, many credit prizes, so a run of seconds sells some winners. */
const INSTANT_TOTAL = 20_000;
const INSTANT_PRIZES = [
  { kind: "credit", title: "£1 credit", credit_amount: 1, quantity: 1_000 },
  { kind: "credit", title: "£5 credit", credit_amount: 5, quantity: 1_000 },
];

type Competitions = { inOrder: string[]; picks: { dip: string; picked: string } | null; instant: string | null };

/**
 * 1,000 approved buyers with £1,000 each, an admin, and 23 live competitions made by the admin's RPCs: 21 in
 * order, and (withPicks: migrations that have them) two pick ones of 100,000 tickets, the lucky dips' 90% sold
 * beforehand (numbers at random).
 */
async function seed(client: pg.Client, withPicks: boolean): Promise<Competitions> {
  await client.query(
    `insert into auth.users (id, email, raw_user_meta_data)
     select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'buyer-' || n || '@bench.test',
            '{"name": "Bench Buyer", "date_of_birth": "1990-01-01"}'
       from generate_series(1, $1::integer) n`,
    [BUYERS],
  );
  await client.query("update public.user_account_data set approved = true, approved_at = now()");
  await client.query(
    "select private.post_ledger(id, 'top_up', 1000.00, 'Bench credit', 'bench', 1000.00) from public.user_account_data",
  );
  const admin = (
    await client.query(
      `insert into auth.users (email, raw_user_meta_data)
       values ('admin@bench.test', '{"name": "Bench Admin", "date_of_birth": "1990-01-01"}') returning id`,
    )
  ).rows[0].id as string;
  await client.query("update public.user_account_data set role = 'admin', approved = true where id = $1", [admin]);
  await client.query("begin");
  // The admin's session is two-step verified (aal2), as the admin functions require.
  await client.query("select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)", [
    JSON.stringify({ sub: admin, role: "authenticated", aal: "aal2" }),
  ]);
  const ids: string[] = [];
  // After the 21 in-order ones (and the two pick ones), the instant-win one: in order, published last
  // so it stays a minority of live competitions (code of practice 1.10, checked at publish).
  const count = SPREAD + 1 + (withPicks ? 3 : 0);
  for (let i = 0; i < count; i++) {
    const pick = i > SPREAD && i <= SPREAD + 2;
    const instant = i === SPREAD + 3;
    const { rows } = await client.query("select (public.admin_create_competition($1)).id as id", [
      {
        title: `Bench competition ${i}`,
        slug: `bench-${i}`,
        prize_description: "Nothing: a benchmark",
        prize_value: 1000,
        ticket_price: 0.25,
        total_tickets: pick ? PICK_TOTAL : instant ? INSTANT_TOTAL : 1_000_000,
        max_tickets_per_user: instant ? INSTANT_TOTAL : 100_000,
        ticket_numbering: pick ? "pick" : "in_order",
        closes_at: new Date(Date.now() + 86_400_000).toISOString(),
        skill_question: "How many sides has a triangle?",
        skill_options: ["Three", "Four"],
        skill_answer: "Three",
      },
    ]);
    if (instant) {
      await client.query("select public.admin_set_instant_win_prizes($1, $2)", [
        rows[0].id,
        JSON.stringify(INSTANT_PRIZES),
      ]);
    }
    await client.query("select public.admin_publish_competition($1, null)", [rows[0].id]);
    ids.push(rows[0].id);
  }
  await client.query("commit");
  const inOrder = ids.slice(0, SPREAD + 1);
  if (!withPicks) {
    await client.query("vacuum analyze");
    return { inOrder, picks: null, instant: null };
  }
  const [dip, picked, instant] = ids.slice(SPREAD + 1);
  // The lucky dips' competition starts 90% sold, its free numbers scattered (one bulk entry with no buyer). This is
  // bench set-up, not a draw: random() only decides which numbers the fixture pre-sells.
  await client.query(
    `with e as (insert into public.entries (competition_id, kind, quantity, unit_price, amount, first_ticket)
                values ($1, 'paid', $2, 0, 0, 1) returning id)
     insert into public.tickets (competition_id, number, entry_id)
     select $1, n, e.id from e, (select n from generate_series(1, $3::integer) n order by random() limit $2) x`,
    [dip, PICK_TOTAL * 0.9, PICK_TOTAL],
  );
  await client.query(
    `update public.entries set first_ticket = (select min(number) from public.tickets where competition_id = $1)
      where competition_id = $1`,
    [dip],
  );
  await client.query("update public.competitions set tickets_sold = $2 where id = $1", [dip, PICK_TOTAL * 0.9]);
  await client.query("vacuum analyze");
  return { inOrder, picks: { dip, picked }, instant };
}

/** One PostgREST-shaped transaction per call, in turn, by one random buyer per script run (after `vars`, pgbench \\set lines). */
function script(calls: string[], vars: string[] = []): string {
  const asBuyer =
    "SELECT set_config('role', 'authenticated', true), set_config('request.jwt.claims', " +
    `'{"sub":"00000000-0000-4000-8000-' || lpad(:u::text, 12, '0') || '","role":"authenticated"}', true);`;
  return [
    ...vars,
    `\\set u random(1, ${BUYERS})`,
    ...calls.flatMap((call) => ["BEGIN;", asBuyer, `${call};`, "END;"]),
    "",
  ].join("\n");
}

/** calls: every transaction; perSecond, p50 and p99: over the window (seconds) after every session's first call. */
type Phase = {
  label: string;
  clients: number;
  calls: number;
  perSecond: number;
  window: number;
  p50: number;
  p99: number;
};

async function pgbench(
  cluster: Cluster,
  label: string,
  clients: number,
  /** The scripts, picked at random with equal weight: each the calls of one script run. */
  scripts: string[][],
  vars: string[] = [],
): Promise<Phase> {
  const account = await serviceAccount();
  // Time for every new session's first call before the measured window (below): more sessions take longer.
  const warmUp = 1 + Math.ceil(clients / 25);
  const work = await mkdtemp(path.join(cluster.dir, `pgbench-${label}-${clients}-`));
  if (account) await chown(work, account.uid, account.gid);
  const files: string[] = [];
  for (const [i, calls] of scripts.entries()) {
    const file = path.join(work, `script-${i}.sql`);
    await writeFile(file, script(calls, vars));
    files.push("-f", `${file}@1`);
  }
  const result = await run(
    path.join(PG15_BIN, "pgbench"),
    [
      ...["-h", cluster.dir, "-p", String(cluster.port), "-U", "postgres", "-n", "-M", "prepared"],
      ...["-c", String(clients), "-j", String(Math.min(clients, 2)), "-T", String(SECONDS + warmUp), "-D", "k=0"],
      ...["-l", "--log-prefix", path.join(work, "log"), ...files, "postgres"],
    ],
    { account },
  );
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(result.stdout)?.[1] ?? NaN);
  const failed = Number(/number of failed transactions: (\d+)/.exec(result.stdout)?.[1] ?? 0);
  if (result.code !== 0 || failed > 0 || !Number.isFinite(processed)) {
    throw new Error(
      `pgbench (${label}, ${clients} clients) failed:\n${result.stdout}\n${result.stderr.slice(0, 2000)}`,
    );
  }
  // Per-transaction log lines: client_id transaction_no latency_us script_no epoch_s epoch_us.
  const done: { client: string; end: number; latency: number }[] = [];
  for (const file of (await readdir(work)).filter((f) => f.startsWith("log"))) {
    for (const line of (await readFile(path.join(work, file), "utf8")).split("\n")) {
      const f = line.split(" ");
      if (f.length < 6) continue;
      done.push({ client: f[0], end: Number(f[4]) * 1000 + Number(f[5]) / 1000, latency: Number(f[2]) / 1000 });
    }
  }
  // The window opens when every session has finished its first call. PostgREST keeps its connections, so a
  // launch meets warm sessions; a new session's first purchase compiles each PL/pgSQL function and plans each
  // foreign-key check (tens of ms of CPU, some of it in the counter queue), which at 200 new sessions in a 5 s
  // phase was most of what the phase measured.
  const firstEnd = new Map<string, number>();
  for (const t of done) firstEnd.set(t.client, Math.min(firstEnd.get(t.client) ?? Infinity, t.end));
  const opens = Math.max(...firstEnd.values());
  // A fold, not Math.max(...): a fast phase logs more transactions than a call may take arguments.
  const last = done.reduce((latest, t) => Math.max(latest, t.end), -Infinity);
  const warm = done.filter((t) => t.end > opens);
  const latencies = warm.map((t) => t.latency).sort((a, b) => a - b);
  return {
    label,
    clients,
    calls: processed,
    perSecond: warm.length / ((last - opens) / 1000),
    window: (last - opens) / 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/**
 * The trivial writing RPC, made on the bench's own cluster (no migration: the app never calls it): one row
 * inserted (one heap tuple, one primary-key entry) by the API role, committed with the same durability.
 */
const ANCHOR_SQL = `
  create schema bench;
  create table bench.anchor (id bigint generated always as identity primary key, at timestamptz not null default now());
  create function bench.write_anchor() returns void language sql as 'insert into bench.anchor default values';
  grant usage on schema bench to authenticated;
  grant insert on bench.anchor to authenticated;
  grant execute on function bench.write_anchor() to authenticated;`;

/** Cumulative write counters: WAL records and bytes, and rows and index entries written in the app's tables. */
type Writes = { walRecords: number; walBytes: number; rows: number; indexEntries: number };

async function writes(client: pg.Client): Promise<Writes> {
  // Index entries: every insert, and every update that is not HOT, adds one to each index of the table.
  const { rows } = await client.query(`
    select (select wal_records from pg_stat_wal)::float8 as "walRecords",
           pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::float8 as "walBytes",
           coalesce(sum(t.n_tup_ins + t.n_tup_upd + t.n_tup_del), 0)::float8 as rows,
           coalesce(sum((t.n_tup_ins + t.n_tup_upd - t.n_tup_hot_upd)
                        * (select count(*) from pg_index i where i.indrelid = t.relid)), 0)::float8 as "indexEntries"
      from pg_stat_user_tables t where t.schemaname <> 'bench'`);
  return rows[0];
}

async function currentLsn(client: pg.Client): Promise<string> {
  return (await client.query("select pg_current_wal_lsn()::text as lsn")).rows[0].lsn;
}

/**
 * The WAL between two points by record kind (pg_waldump --stats=record), per purchase: each index entry is a
 * Btree/INSERT_LEAF record, each row a Heap record, so this counts partial indexes and HOT updates exactly where
 * the statistics views can only estimate.
 */
async function walRecordKinds(
  cluster: Cluster,
  from: string,
  to: string,
  purchases: number,
): Promise<{ kind: string; perPurchase: number }[]> {
  const result = await run(path.join(PG15_BIN, "pg_waldump"), [
    ...["-p", path.join(cluster.dir, "data", "pg_wal"), "-s", from, "-e", to, "--stats=record"],
  ]);
  if (result.code !== 0) throw new Error(`pg_waldump failed:\n${result.stderr.slice(0, 2000)}`);
  // Lines such as "Heap/INSERT    12345 ( 12.34) …": the kind and its count.
  return [...result.stdout.matchAll(/^(\w+\/[\w+-]+)\s+(\d+)\s/gm)]
    .map((m) => ({ kind: m[1], perPurchase: Number(m[2]) / purchases }))
    .filter((k) => k.perPurchase >= 0.05)
    .sort((a, b) => b.perPurchase - a.perPurchase);
}

/**
 * idx_scan of every index of the tables written so far: an index no purchase or page query reads costs an entry
 * per insert for nothing.
 */
async function indexScans(client: pg.Client): Promise<Map<string, number>> {
  await client.query("select pg_stat_clear_snapshot()");
  const { rows } = await client.query(
    `select i.relname || '.' || i.indexrelname as index, i.idx_scan::float8 as scans
       from pg_stat_user_indexes i
      where i.relid in (select relid from pg_stat_user_tables where n_tup_ins + n_tup_upd > 0 and schemaname <> 'bench')
      order by i.relname, i.indexrelname`,
  );
  return new Map(rows.map((r) => [r.index, r.scans]));
}

type Checks = {
  oversold: number;
  numbering: boolean;
  sold: number;
  balances: boolean;
  totals: boolean;
  instantWins: { sold: number; awarded: number; exact: boolean } | null;
};

async function check(client: pg.Client, withInstantWins: boolean): Promise<Checks> {
  const { rows } = await client.query(`
    select
      (select count(*) from public.competitions c where c.tickets_sold > c.total_tickets)::integer as oversold,
      (select bool_and(x.ok) from (
         select c.tickets_sold = count(t.id) and count(t.id) = count(distinct t.number)
                and case when c.ticket_numbering = 'in_order'
                         then coalesce(min(t.number), 1) = 1 and coalesce(max(t.number), 0) = c.tickets_sold
                         else coalesce(min(t.number), 1) >= 1 and coalesce(max(t.number), 0) <= c.total_tickets end as ok
           from public.competitions c left join public.tickets t on t.competition_id = c.id
          group by c.id) x) as numbering,
      (select sum(tickets_sold) from public.competitions)::integer as sold,
      (select bool_and(a.credits = coalesce((select sum(l.amount) from public.credit_ledger l where l.user_id = a.id), 0))
         from public.user_account_data a) as balances,
      (select bool_and(a.total_spent = coalesce((select sum(e.amount) from public.entries e where e.user_id = a.id), 0)
                   and a.total_entries = coalesce((select sum(e.quantity) from public.entries e where e.user_id = a.id), 0))
         from public.user_account_data a where a.role = 'user') as totals`);
  // Migrations from before instant wins (--compare's baseline) have none of their tables.
  if (!withInstantWins) return { ...rows[0], instantWins: null };
  // Each winning number sold has exactly one award, on its ticket with the number's prize, and no award
  // exists for a number that is not a winning one; each award's credit prize is in the ledger once.
  const { rows: wins } = await client.query(`
    select (select count(*) from public.instant_win_numbers n
              join public.tickets t on t.competition_id = n.competition_id and t.number = n.number)::integer as sold,
           (select count(*) from public.instant_wins)::integer as awarded,
           (select bool_and((select count(*) from public.instant_wins w
                              where w.ticket_id = t.id and w.prize_id = n.prize_id and w.winning_number = n.number) = 1)
              from public.instant_win_numbers n
              join public.tickets t on t.competition_id = n.competition_id and t.number = n.number)
           and not exists (select 1 from public.instant_wins w
                            where not exists (select 1 from public.instant_win_numbers n
                                               where n.competition_id = w.competition_id and n.number = w.ticket_number))
           and (select count(*) from public.credit_ledger l where l.kind = 'instant_win')
             = (select count(*) from public.instant_wins w join public.instant_win_prizes p on p.id = w.prize_id
                 where p.kind = 'credit') as exact`);
  return { ...rows[0], instantWins: wins[0] };
}

type Where = "hot" | "spread" | "dip" | "picked" | "instant";
type Report = {
  migrations: string;
  phases: { trivial: Phase; purchase: Phase; where: Where }[];
  checks: Checks;
  /** Per in-order purchase, over the hot 50-buyer phase. */
  perPurchase: Writes;
  /** WAL records per in-order purchase by kind, over the same phase (pg_waldump): what the writes are. */
  walKinds: { kind: string; perPurchase: number }[];
  /** Scans of each index of the tables the phases wrote, over the phases (set-up and checks excluded). */
  indexScans: { index: string; scans: number }[];
};

async function measure(before?: string): Promise<Report> {
  const cluster = await startCluster();
  const client = new pg.Client(cluster.config);
  client.on("error", () => {}); // the cluster stopping under a failed run is not news
  try {
    await client.connect();
    const last = await migrate(client, before);
    const competitions = await seed(client, before === undefined);
    await client.query(ANCHOR_SQL);
    const [hot, ...spread] = competitions.inOrder;
    const trivial = ["SELECT bench.write_anchor()"];
    // A purchase as the app makes it: answered after the durability call, where the migrations have one.
    const durable = (await client.query("select to_regprocedure('public.make_entries_durable()') is not null as has"))
      .rows[0].has
      ? ["SELECT public.make_entries_durable()"]
      : [];
    const buy = (call: string) => [call, ...durable];
    const enter = (id: string) => buy(`SELECT public.enter_competition('${id}', 1, 'Three')`);
    const scansBefore = await indexScans(client);
    await pgbench(cluster, "warm-up", 2, [enter(hot), trivial]);
    await client.query("checkpoint"); // the warm-up's WAL is not the phases' to flush
    // Tickets sold before the phases (the warm-up's, and the lucky dips' competition's 90%).
    const warmUpSales = Number((await client.query("select sum(tickets_sold) s from public.competitions")).rows[0].s);
    const phases: Report["phases"] = [];
    let perPurchase: Writes | undefined;
    let walKinds: Report["walKinds"] = [];
    for (const clients of [1, 50, 200]) {
      const anchor = await pgbench(cluster, "write_anchor", clients, [trivial]);
      const start = await writes(client);
      const startLsn = await currentLsn(client);
      const purchase = await pgbench(cluster, "enter_competition", clients, [enter(hot)]);
      // pgbench's sessions have ended, so their statistics are flushed: the delta is this phase's alone.
      if (clients === 50) {
        const end = await writes(client);
        const per = (k: keyof Writes) => (end[k] - start[k]) / purchase.calls;
        perPurchase = {
          walRecords: per("walRecords"),
          walBytes: per("walBytes"),
          rows: per("rows"),
          indexEntries: per("indexEntries"),
        };
        walKinds = await walRecordKinds(cluster, startLsn, await currentLsn(client), purchase.calls);
      }
      phases.push({ trivial: anchor, purchase, where: "hot" });
    }
    phases.push({
      trivial: await pgbench(cluster, "write_anchor", 50, [trivial]),
      purchase: await pgbench(cluster, "enter_competition-20", 50, spread.map(enter)),
      where: "spread",
    });
    if (competitions.picks) {
      phases.push({
        trivial: await pgbench(cluster, "write_anchor", 50, [trivial]),
        purchase: await pgbench(cluster, "lucky-dip", 50, [enter(competitions.picks.dip)]),
        where: "dip",
      });
      // Client c's k-th purchase chooses number c * PICK_BLOCK + k: distinct across clients and calls.
      phases.push({
        trivial: await pgbench(cluster, "write_anchor", 50, [trivial]),
        purchase: await pgbench(
          cluster,
          "picked-numbers",
          50,
          [buy(`SELECT public.enter_competition('${competitions.picks.picked}', 1, 'Three', ARRAY[:n]::integer[])`)],
          ["\\set k :k + 1", `\\set n :client_id * ${PICK_BLOCK} + :k`],
        ),
        where: "picked",
      });
    }
    if (competitions.instant) {
      phases.push({
        trivial: await pgbench(cluster, "write_anchor", 50, [trivial]),
        purchase: await pgbench(cluster, "instant-wins", 50, [enter(competitions.instant)]),
        where: "instant",
      });
    }
    const scansAfter = await indexScans(client);
    const checks = await check(client, competitions.instant !== null);
    if (PROFILE) {
      await client.query("select pg_stat_force_next_flush()").catch(() => {});
      const { rows } = await client.query(
        `select schemaname || '.' || funcname as fn, calls, round(total_time) total_ms, round(self_time) self_ms
           from pg_stat_user_functions order by self_time desc limit 20`,
      );
      console.table(rows);
    }
    return {
      migrations: last,
      phases,
      checks: { ...checks, sold: checks.sold - warmUpSales },
      perPurchase: perPurchase!,
      walKinds,
      indexScans: [...scansAfter].map(([index, scans]) => ({ index, scans: scans - (scansBefore.get(index) ?? 0) })),
    };
  } finally {
    await client.end().catch(() => {});
    await cluster.stop();
  }
}

function print(title: string, report: Report) {
  const ms = (v: number) => v.toFixed(1).padStart(7);
  console.log(`\n${title} (migrations up to ${report.migrations})`);
  console.log(
    `${"purchases".padEnd(30)} ${"buyers".padStart(6)} ${"per s".padStart(7)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}` +
      `   ${"write/s".padStart(10)} ${"p50 ms".padStart(7)}   ${"÷ write".padStart(9)}   ${"warm s".padStart(6)}`,
  );
  const places: Record<Where, string> = {
    hot: "one hot competition",
    spread: `${SPREAD} competitions`,
    dip: "lucky dips, 90% sold, pick",
    picked: "chosen numbers, pick",
    instant: "instant wins, in order",
  };
  for (const { trivial, purchase, where: at } of report.phases) {
    const where = places[at];
    console.log(
      `${where.padEnd(30)} ${String(purchase.clients).padStart(6)} ${purchase.perSecond.toFixed(0).padStart(7)} ` +
        `${ms(purchase.p50)} ${ms(purchase.p99)}   ${trivial.perSecond.toFixed(0).padStart(10)} ${ms(trivial.p50)}   ` +
        `${(purchase.perSecond / trivial.perSecond).toFixed(2).padStart(8)}x   ${purchase.window.toFixed(1).padStart(6)}`,
    );
  }
  const c = report.checks;
  const made = report.phases.reduce((n, p) => n + p.purchase.calls, 0);
  console.log(
    `oversold competitions: ${c.oversold}; numbering 1..sold (in order) or distinct in 1..N (pick), no gaps or ` +
      `duplicates: ${c.numbering ? "yes" : "NO"}; ` +
      `tickets sold ${c.sold} = purchases ${made}: ${c.sold === made ? "yes" : "NO"}; ` +
      `balances = ledger sums: ${c.balances ? "yes" : "NO"}; account totals = entries: ${c.totals ? "yes" : "NO"}` +
      (c.instantWins
        ? `; winning numbers sold ${c.instantWins.sold}, awards ${c.instantWins.awarded}, each exactly once: ` +
          `${c.instantWins.exact && c.instantWins.sold === c.instantWins.awarded ? "yes" : "NO"}`
        : ""),
  );
  const w = report.perPurchase;
  console.log(
    `writes per in-order purchase (hot, 50 buyers): ${w.walRecords.toFixed(1)} WAL records, ` +
      `${w.walBytes.toFixed(0)} WAL bytes, ${w.rows.toFixed(1)} rows (inserted, updated, deleted), ` +
      `${w.indexEntries.toFixed(1)} index entries`,
  );
  console.log(
    `WAL records per in-order purchase by kind: ${report.walKinds.map((k) => `${k.kind} ${k.perPurchase.toFixed(2)}`).join(", ")}`,
  );
  console.log(
    `index scans over the phases (tables written): ${report.indexScans.map((i) => `${i.index} ${i.scans}`).join(", ")}`,
  );
  const ratio = (i: number) => report.phases[i].purchase.perSecond / report.phases[i].trivial.perSecond;
  const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
  const [fifty, twoHundred] = [report.phases[1].purchase.perSecond, report.phases[2].purchase.perSecond];
  console.log(
    `targets: hot at 50 >= 0.5x write: ${ratio(1).toFixed(2)}x ${verdict(ratio(1) >= 0.5)}; ` +
      `hot at 200 >= 0.9x hot at 50: ${(twoHundred / fifty).toFixed(2)}x ${verdict(twoHundred >= 0.9 * fifty)}; ` +
      `20 competitions >= 0.8x write: ${ratio(3).toFixed(2)}x ${verdict(ratio(3) >= 0.8)}`,
  );
  const wins = c.instantWins === null || (c.instantWins.exact && c.instantWins.sold === c.instantWins.awarded);
  return c.oversold === 0 && c.numbering && c.sold === made && c.balances && c.totals && wins;
}

async function main() {
  console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
  const begun = performance.now();
  const guard = setTimeout(() => {
    console.error(`bench:onsale: stopped after ${HARD_LIMIT_MS / 60_000} minutes`);
    process.exit(1);
  }, HARD_LIMIT_MS);
  guard.unref();
  console.log(
    `bench:onsale: PostgreSQL 15, default durability, pgbench PostgREST-shaped transactions (prepared), ` +
      `${BUYERS} buyers, ${SECONDS} s per phase, ${os.cpus().length} CPUs shared by server and pgbench`,
  );
  let consistent = true;
  if (process.argv.includes("--compare")) {
    consistent =
      print("BEFORE: without the purchase-concurrency migration", await measure(CONCURRENCY_MIGRATION)) && consistent;
    consistent = print("AFTER: every migration", await measure()) && consistent;
  } else {
    consistent = print("Every migration", await measure()) && consistent;
  }
  console.log(`total ${((performance.now() - begun) / 1000).toFixed(0)} s`);
  clearTimeout(guard);
  if (!consistent) process.exitCode = 1;
}

await main();
