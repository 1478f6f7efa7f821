// Opens the embedded Postgres (PGlite) and brings it to the current schema:
// the Supabase shim, then every migration once and in order, then the seed once.
// Used by the embedded backend (one data directory, one process) and by the db
// tests (one in-memory database per worker).
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";

const supabaseDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const migrationsDir = path.join(supabaseDir, "migrations");
export const seedFile = path.join(supabaseDir, "seed.sql");
const shimFile = path.join(supabaseDir, "embedded", "shim.sql");

export interface OpenOptions {
  /** Folder for the data; omit for an in-memory database. */
  dataDir?: string;
  /** Apply supabase/seed.sql (once per database). Default true. */
  seed?: boolean;
  /** Log each applied migration. */
  log?: (line: string) => void;
}

export async function openDatabase(options: OpenOptions = {}): Promise<PGlite> {
  const db = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pgcrypto },
  });
  await migrate(db, options);
  return db;
}

export async function migrate(db: PGlite, options: OpenOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  await db.exec(await readFile(shimFile, "utf8"));
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      name text,
      applied_at timestamptz not null default now()
    );
  `);
  const applied = new Set(
    (await db.query<{ version: string }>("select version from supabase_migrations.schema_migrations")).rows.map(
      (r) => r.version,
    ),
  );
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort();
  for (const file of files) {
    const [version, ...rest] = file.replace(/\.sql$/, "").split("_");
    if (applied.has(version)) continue;
    const sql = await readFile(path.join(migrationsDir, file), "utf8");
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
        version,
        rest.join("_"),
      ]);
    });
    log(`applied migration ${file}`);
  }
  if (options.seed !== false && !applied.has("seed")) {
    const seeded = await db.query("select 1 from supabase_migrations.schema_migrations where version = 'seed'");
    if (seeded.rows.length === 0) {
      const sql = await readFile(seedFile, "utf8");
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query("insert into supabase_migrations.schema_migrations (version, name) values ('seed', 'seed.sql')");
      });
      log("applied seed.sql");
    }
  }
}
