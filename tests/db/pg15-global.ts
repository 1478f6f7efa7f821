// The db project's global setup: one PostgreSQL 15 cluster for the whole run, with the template databases every
// PG15 test file copies (tests/db/pg15.ts). Started before the first db file and stopped after the last; clusters a
// crashed run left behind are removed first. Without PostgreSQL 15 the run goes on and the files that need it fail
// with the reason, as they did when each started its own.
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migratePg15, removeOrphanedPg15, seedPg15, startPg15, type Pg15 } from "../../scripts/pg15";
import { PG15_TEMPLATES, withClient } from "./pg15";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let cluster: Pg15 | undefined;
  try {
    await removeOrphanedPg15();
    // Two workers' files at once, each with a pool of up to 40 connections.
    cluster = await startPg15({ migrate: false, maxConnections: 200 });
    const { host, port, user } = cluster.config as { host: string; port: number; user: string };
    await build(cluster.config, `create database ${PG15_TEMPLATES.migrated}`, PG15_TEMPLATES.migrated, migratePg15);
    await build(
      cluster.config,
      `create database ${PG15_TEMPLATES.seeded} template ${PG15_TEMPLATES.migrated}`,
      PG15_TEMPLATES.seeded,
      seedPg15,
    );
    project.provide("pg15", { config: { host, port, user } });
  } catch (e) {
    await cluster?.stop();
    cluster = undefined;
    project.provide("pg15", { error: (e as Error).message });
  }
  return async () => {
    await cluster?.stop();
  };
}

/** Creates a template database and fills it, each through a connection closed before any file copies it. */
async function build(
  config: pg.ClientConfig,
  create: string,
  database: string,
  fill: (client: pg.Client) => Promise<unknown>,
): Promise<void> {
  await withClient(config, (admin) => admin.query(create));
  await withClient({ ...config, database }, fill);
}
