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
