// npm run bench:notifications: how long a draw with 10,000 entrants takes to write its notifications on
// PostgreSQL 15 (aim under 2 s: the draw's own transaction writes them).
//
// Starts a throwaway PostgreSQL 15 cluster (scripts/pg15.ts, as the db tests do), migrated; makes BENCH_ENTRANTS
// accounts (default 10,000) and a live competition through the admin RPCs, gives every account two tickets
// (written in bulk: the purchase path is bench:onsale's subject, not this one's), turns push on for about one in ten
// of them, and moves its draw time to now.
// Then it draws it BENCH_RUNS times (default 3), each in a transaction rolled back afterwards, once with the
// notification trigger and once without, and prints the median of both and their difference: the fan-out's cost.
// Checks that the draw wrote one notification per entrant, and queued for push exactly those with push on. Bounded: stops after 5 minutes whatever happens.
import { performance } from "node:perf_hooks";
import type pg from "pg";
import { startPg15 } from "./pg15";

const ENTRANTS = Number(process.env.BENCH_ENTRANTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const AIM_MS = 2_000;
const HARD_LIMIT_MS = 5 * 60_000;

async function asAdmin<T>(client: pg.Client, admin: string, sql: string, params: unknown[]): Promise<T> {
  await client.query("begin");
  try {
    await client.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: admin, role: "authenticated", aal: "aal2" }),
    ]);
    await client.query("set local role authenticated");
    const { rows } = await client.query(sql, params);
    await client.query("commit");
    return rows[0].value as T;
  } catch (e) {
    await client.query("rollback");
    throw e;
  }
}

async function prepare(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ id: string }>(
    `insert into auth.users (email, raw_user_meta_data)
     values ('bench-admin@labcash.test', '{"name": "Bench Admin", "date_of_birth": "1990-01-01"}') returning id`,
  );
  const admin = rows[0].id;
  await client.query("update public.user_account_data set role = 'admin', approved = true where id = $1", [admin]);
  const { id } = await asAdmin<{ id: string }>(
    client,
    admin,
    "select to_json(public.admin_create_competition($1)) as value",
    [
      {
        title: "Bench draw",
        slug: "bench-draw",
        prize_description: "A bench prize",
        prize_value: 100,
        images: ["/competitions/test.svg"],
        ticket_price: 1,
        total_tickets: ENTRANTS * 2,
        max_tickets_per_user: 2,
        closes_at: new Date(Date.now() + 7 * 86400_000).toISOString(),
        skill_question: "What is 2 + 2?",
        skill_options: ["3", "4", "5"],
        skill_answer: "4",
      },
    ],
  );
  await asAdmin(client, admin, "select public.admin_publish_competition($1) as value", [id]);
  await client.query(
    `insert into auth.users (email, raw_user_meta_data)
     select 'bench-' || i || '@labcash.test', jsonb_build_object('name', 'Bench Player' || i, 'date_of_birth', '1990-01-01')
       from generate_series(1, $1) i`,
    [ENTRANTS],
  );
  // Two tickets per entrant, numbered in account order, as purchases would have left them.
  await client.query(
    `with players as (
       select u.id, row_number() over (order by u.id) as i from auth.users u where u.email like 'bench-%' and u.email <> 'bench-admin@labcash.test'
     ), e as (
       insert into public.entries (competition_id, user_id, kind, quantity, unit_price, amount, first_ticket)
       select $1, p.id, 'paid', 2, 1, 2, 2 * p.i - 1 from players p
       returning id, user_id, first_ticket
     )
     insert into public.tickets (competition_id, number, entry_id, user_id)
     select $1, e.first_ticket + k, e.id, e.user_id from e, generate_series(0, 1) k`,
    [id],
  );
  // Every tenth entrant has push on in a browser and chose draw results, so the fan-out decides, per entrant,
  // whether the notification waits for push (private.push_wanted) against rows that exist.
  await client.query(
    `with fans as (
       insert into public.push_preferences (user_id, kinds)
       select u.id, array['draw_won', 'draw_lost'] from auth.users u
        where u.email like 'bench-%' and u.email <> 'bench-admin@labcash.test' and (hashtext(u.email) % 10) = 0
       returning user_id
     )
     insert into public.push_subscriptions (user_id, endpoint, p256dh, auth)
     select f.user_id, 'https://fcm.googleapis.com/fcm/send/' || f.user_id, 'B' || repeat('A', 86), repeat('A', 22) from fans f`,
  );
  await client.query(
    `update public.competitions set tickets_sold = $2, opens_at = now() - interval '3 days',
            closes_at = now() - interval '2 days', postal_deadline = now() - interval '1 day',
            draw_at = now() - interval '1 second' where id = $1`,
    [id, ENTRANTS * 2],
  );
  await client.query("analyze");
  return id;
}

async function timedDraw(
  client: pg.Client,
  competition: string,
  notify: boolean,
): Promise<{ ms: number; rows: number; pushing: number }> {
  await client.query("begin");
  try {
    if (!notify) await client.query("alter table public.draws disable trigger draws_notify");
    const started = performance.now();
    await client.query("select private.draw_competition($1)", [competition]);
    const ms = performance.now() - started;
    const { rows } = await client.query<{ n: number; pushing: number }>(
      `select count(*)::int as n, (count(*) filter (where push_pending))::int as pushing
         from public.notifications where ref like 'draw:%'`,
    );
    return { ms, rows: rows[0].n, pushing: rows[0].pushing };
  } finally {
    await client.query("rollback");
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  console.log("Latest figures to compare with, and the command that made them: docs/benchmarks.md");
  const timer = setTimeout(() => {
    console.error(`bench:notifications: stopped after ${HARD_LIMIT_MS / 60_000} minutes`);
    process.exit(2);
  }, HARD_LIMIT_MS);
  timer.unref();
  const cluster = await startPg15();
  const client = new (await import("pg")).default.Client(cluster.config);
  await client.connect();
  try {
    const competition = await prepare(client);
    const { rows: fans } = await client.query<{ n: number }>("select count(*)::int as n from public.push_preferences");
    const withFanOut: number[] = [];
    const without: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const drawn = await timedDraw(client, competition, true);
      if (drawn.rows !== ENTRANTS) throw new Error(`expected ${ENTRANTS} notifications, the draw wrote ${drawn.rows}`);
      if (drawn.pushing !== fans[0].n)
        throw new Error(`expected ${fans[0].n} notifications waiting for push, the draw queued ${drawn.pushing}`);
      withFanOut.push(drawn.ms);
      without.push((await timedDraw(client, competition, false)).ms);
    }
    const [full, bare] = [median(withFanOut), median(without)];
    const fanOut = full - bare;
    console.log(
      `\nPostgreSQL 15, a draw with ${ENTRANTS.toLocaleString("en-GB")} entrants (2 tickets each; ${fans[0].n.toLocaleString("en-GB")} with push on), median of ${RUNS}:`,
    );
    console.log(`  the draw with its notifications  ${full.toFixed(0).padStart(6)} ms`);
    console.log(`  the draw without them             ${bare.toFixed(0).padStart(6)} ms`);
    console.log(`  writing the notifications         ${fanOut.toFixed(0).padStart(6)} ms (aim: under ${AIM_MS} ms)`);
    if (full > AIM_MS) process.exitCode = 1;
  } finally {
    await client.end().catch(() => {});
    await cluster.stop();
  }
}

await main();
