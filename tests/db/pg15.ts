// The db tests' PostgreSQL 15: scripts/pg15.ts starts a cluster (the restore drill uses it too). The db project
// starts one cluster per run (tests/db/pg15-global.ts, a vitest globalSetup) holding two template databases, every
// migration without and with the seed; each test file gets its own copy of one (`create database … template …`,
// a tenth of a second) instead of its own initdb and migrations (about two seconds a file on a quiet machine).
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { startPg15, type Pg15 } from "../../scripts/pg15";

export { PG15_BIN, migratePg15, startPg15, type Pg15 } from "../../scripts/pg15";

/** The template databases the db project's cluster holds. */
export const PG15_TEMPLATES = { migrated: "labcash_migrated", seeded: "labcash_seeded" } as const;

/** What the db project's global setup hands each test file: where its cluster listens, or why it did not start. */
export type SharedPg15 = { config: { host: string; port: number; user: string } } | { error: string };

declare module "vitest" {
  export interface ProvidedContext {
    pg15?: SharedPg15;
  }
}

/**
 * A migrated database of its own for the whole test file (seeded too with `{ seed: true }`), with a pool of `size`
 * connections: made before the file's first test, dropped after its last. Read `cluster.pool` inside tests and
 * helpers (`cluster.config` for a client of its own). Outside the db project (no shared cluster) the file starts a
 * cluster of its own, as every file did before.
 */
export function pg15ClusterForFile(
  size = 40,
  options: { seed?: boolean } = {},
): { readonly pool: pg.Pool; readonly config: pg.ClientConfig } {
  let server: Pg15 | undefined;
  let pool: pg.Pool | undefined;
  let config: pg.ClientConfig | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const shared = inject("pg15");
    if (shared && "error" in shared) throw new Error(shared.error);
    if (!shared) {
      server = await startPg15(options);
      config = server.config;
    } else {
      const database = `file_${randomUUID().replaceAll("-", "")}`;
      const template = options.seed ? PG15_TEMPLATES.seeded : PG15_TEMPLATES.migrated;
      const admin = { ...shared.config, database: "postgres" };
      await withClient(admin, (c) => c.query(`create database ${database} template ${template}`));
      config = { ...shared.config, database };
      dropDatabase = () => withClient(admin, (c) => c.query(`drop database ${database}`));
    }
    pool = new pg.Pool({ ...config, max: size });
  });
  afterAll(async () => {
    await pool?.end();
    await dropDatabase?.();
    await server?.stop();
  });
  return {
    get pool() {
      if (!pool) throw new Error("the PostgreSQL 15 database is not made yet");
      return pool;
    },
    get config() {
      if (!config) throw new Error("the PostgreSQL 15 database is not made yet");
      return config;
    },
  };
}

/** Runs `run` on a client of its own, closed afterwards. */
export async function withClient(config: pg.ClientConfig, run: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

/**
 * One statement as an API caller, the way PostgREST runs it: a transaction with the token's claims and
 * role set locally; answers the `result` column of the first row.
 */
export async function resultAs<T>(
  pool: pg.Pool,
  claims: Record<string, string>,
  role: string,
  sql: string,
  params: unknown[],
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
    await client.query(`set local role ${role}`);
    const res = await client.query(sql, params);
    await client.query("commit");
    return res.rows[0]?.result as T;
  } catch (e) {
    await client.query("rollback");
    throw e;
  } finally {
    client.release();
  }
}

/** What a call answers when it may be refused: its `result`, or the refusal's machine code (hint) and message. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; hint: string | undefined; message: string };

/** `resultAs`, answering a refusal instead of throwing it: racing calls are expected to be refused in part. */
export async function attemptAs<T>(
  pool: pg.Pool,
  claims: Record<string, string>,
  role: string,
  sql: string,
  params: unknown[],
): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await resultAs<T>(pool, claims, role, sql, params) };
  } catch (e) {
    const err = e as { hint?: string; message: string };
    return { ok: false, hint: err.hint, message: err.message };
  }
}

/** A pool or one client: where the account helpers below write. */
type Queryable = Pick<pg.ClientBase, "query">;

/**
 * A new account as sign-up makes it (the auth trigger writes its profile), already approved, an admin's with
 * `role: "admin"`; `meta` adds to its sign-up metadata (a name, a referral code). Answers its id.
 */
export async function approvedAccount(
  db: Queryable,
  email: string,
  { role = "user", meta = {} }: { role?: "user" | "admin"; meta?: Record<string, string> } = {},
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    "insert into auth.users (email, raw_user_meta_data) values ($1, $2) returning id",
    [email, JSON.stringify({ date_of_birth: "1990-01-01", ...meta })],
  );
  await db.query("update public.user_account_data set role = $2::public.user_role, approved = true where id = $1", [
    rows[0].id,
    role,
  ]);
  return rows[0].id;
}

/** `count` approved players at once, "<prefix>-<n>@t.test" named `name`, each topped up with `credits`; their ids. */
export async function fundedPlayers(
  db: Queryable,
  { prefix, count, credits, name }: { prefix: string; count: number; credits: number; name: string },
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (email, raw_user_meta_data)
     select $1 || '-' || n || '@t.test', jsonb_build_object('name', $3::text, 'date_of_birth', '1990-01-01')
       from generate_series(1, $2::integer) n
     returning id`,
    [prefix, count, name],
  );
  const ids = rows.map((r) => r.id);
  await db.query("update public.user_account_data set approved = true where id = any($1)", [ids]);
  await db.query("select private.post_ledger(id, 'top_up', $2, 'Test', 'test', $2) from unnest($1::uuid[]) id", [
    ids,
    credits,
  ]);
  return ids;
}

/**
 * What admin_create_competition takes for a plain competition closing in a day, with a question whose answer is
 * "4": `fields` names it and sets its terms (and may change anything else).
 */
export function competitionFields(fields: { title: string; slug: string } & Record<string, unknown>) {
  return {
    prize_description: "A prize",
    prize_value: 100,
    ticket_price: 1,
    closes_at: new Date(Date.now() + 86_400_000).toISOString(),
    skill_question: "How many sides has a square?",
    skill_options: ["3", "4"],
    skill_answer: "4",
    ...fields,
  };
}
