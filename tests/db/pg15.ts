// The db tests' PostgreSQL 15 cluster: scripts/pg15.ts starts it (the restore drill uses it too); this file adds
// the per-file lifecycle for vitest.
import type pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startPg15, type Pg15 } from "../../scripts/pg15";

export { PG15_BIN, migratePg15, startPg15, type Pg15 } from "../../scripts/pg15";

/**
 * A migrated cluster for the whole test file, with a pool of `size` connections: started before
 * the file's first test, stopped after its last. Read `cluster.pool` inside tests and helpers.
 */
export function pg15ClusterForFile(size = 40): { readonly pool: pg.Pool } {
  let server: Pg15 | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    server = await startPg15();
    pool = server.pool(size);
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });
  return {
    get pool() {
      if (!pool) throw new Error("the PostgreSQL 15 cluster is not started yet");
      return pool;
    },
  };
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
