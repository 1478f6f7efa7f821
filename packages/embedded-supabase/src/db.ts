// Opens the embedded Postgres (PGlite) and brings it to the current schema:
// the Supabase shim, then every migration of the app's folder once and in order, then its seed once.
// Used by the embedded backend (one data directory, one process) and by an app's db
// tests (one in-memory database per worker). The schema is the app's: it passes its folders in.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";

/** What Supabase gives Postgres and PGlite lacks (the auth and storage schemas, the API roles); applied first. */
export const shimFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "shim.sql");

/** The app's schema: what `supabase db push` and `supabase start` would apply. */
export interface SchemaOptions {
  /** The folder of `<version>_<name>.sql` migrations, applied in order, each once. Omit for the shim alone. */
  migrationsDir?: string;
  /** SQL applied once per database after the migrations (demo data). Omit for none. */
  seedFile?: string;
  /** What a developer should do when the database is stale (StaleMigrationsError); default: delete its data directory. */
  resetAdvice?: string;
  /**
   * A folder for migrated snapshots (omit for none). A new database then starts from a copy of one made with the
   * same shim, migrations, migrator and PGlite (made by the first start that needs it, kept as `<key>.tar`), and
   * only the seed runs on it: a start costs the same however many migrations there are, and however slow the
   * machine replaying them would be.
   */
  snapshotDir?: string;
}

export interface OpenOptions extends SchemaOptions {
  /** Folder for the data; omit for an in-memory database. */
  dataDir?: string;
  /** Apply the seed file (once per database). Default true. */
  seed?: boolean;
  /** Log each applied migration. */
  log?: (line: string) => void;
}

const DEFAULT_RESET_ADVICE = "Delete the database's data directory, then start again.";

export async function openDatabase(options: OpenOptions = {}): Promise<PGlite> {
  const isNew = !options.dataDir || !existsSync(path.join(options.dataDir, "PG_VERSION"));
  const db = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pgcrypto },
    // Migrated only: the seed runs on the copy below, so its dates are relative to this start.
    ...(isNew
      ? { loadDataDir: options.snapshotDir ? await migratedSnapshot({ ...options, seed: false }) : await newCluster() }
      : {}),
  });
  try {
    await migrate(db, options);
  } catch (e) {
    await db.close();
    throw e;
  }
  return db;
}

let newClusterImage: Promise<Blob> | undefined;

/**
 * A cluster as initdb leaves it, made once per process: initdb is three quarters of a new database's start, and a
 * copy of its result is the same cluster.
 */
function newCluster(): Promise<Blob> {
  newClusterImage ??= (async () => {
    const db = await PGlite.create();
    try {
      return await db.dumpDataDir("none");
    } finally {
      await db.close();
    }
  })().catch((e: unknown) => {
    newClusterImage = undefined;
    throw e;
  });
  return newClusterImage;
}

/**
 * The database records migrations that are no longer in the migrations folder (they were
 * re-cut or deleted). Applying the folder on top would mix two histories, and dropping
 * the data silently would lose a developer's work, so the start stops and says what to do.
 */
export class StaleMigrationsError extends Error {
  constructor(
    readonly missing: string[],
    folder: string,
    advice: string = DEFAULT_RESET_ADVICE,
  ) {
    super(
      `This database has migrations applied that are no longer in ${folder}: ${missing.join(", ")}. ` +
        `The migrations were rewritten, so this data cannot be brought up to date. ${advice}`,
    );
    this.name = "StaleMigrationsError";
  }
}

/** What supabase_migrations.schema_migrations records; nothing for a new database. */
async function appliedMigrations(db: PGlite): Promise<Array<{ version: string; name: string | null }>> {
  const [{ exists }] = (
    await db.query<{ exists: boolean }>(
      "select to_regclass('supabase_migrations.schema_migrations') is not null as exists",
    )
  ).rows;
  if (!exists) return [];
  return (
    await db.query<{ version: string; name: string | null }>(
      "select version, name from supabase_migrations.schema_migrations order by version",
    )
  ).rows;
}

export async function migrate(db: PGlite, options: OpenOptions = {}): Promise<void> {
  const log = options.log ?? (() => {});
  const { migrationsDir = "", seedFile } = options;
  const files = migrationsDir ? (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort() : [];
  const recorded = await appliedMigrations(db);
  // Checked before anything is applied, so a refused start changes nothing.
  const inFolder = new Set(files.map((f) => f.split("_")[0]));
  const missing = recorded.filter((r) => r.version !== "seed" && !inFolder.has(r.version));
  if (missing.length)
    throw new StaleMigrationsError(
      missing.map((r) => (r.name ? `${r.version}_${r.name}` : r.version)),
      path.relative(process.cwd(), migrationsDir) || "the migrations folder",
      options.resetAdvice,
    );

  await db.exec(await readFile(shimFile, "utf8"));
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      name text,
      applied_at timestamptz not null default now()
    );
  `);
  const applied = new Set(recorded.map((r) => r.version));
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
  if (seedFile && options.seed !== false && !applied.has("seed")) {
    const sql = await readFile(seedFile, "utf8");
    const name = path.basename(seedFile);
    await db.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query("insert into supabase_migrations.schema_migrations (version, name) values ('seed', $1)", [name]);
    });
    log(`applied ${name}`);
  }
}

/**
 * What a snapshot depends on: the shim, the migrator (this file), every migration (name and text), the seed when it
 * holds one, and PGlite's version (its data directory format). File names only, never their folders, so that every
 * checkout of the same schema shares one snapshot.
 */
async function snapshotKey(options: SchemaOptions, seed: boolean): Promise<string> {
  const hash = createHash("sha256");
  const { migrationsDir, seedFile } = options;
  const inputs = [shimFile, fileURLToPath(import.meta.url)];
  if (migrationsDir)
    for (const file of (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort())
      inputs.push(path.join(migrationsDir, file));
  if (seed && seedFile) inputs.push(seedFile);
  for (const file of inputs) hash.update(path.basename(file)).update(await readFile(file));
  const pglite = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pglitePackage = path.join(pglite.slice(0, pglite.lastIndexOf(`${path.sep}dist${path.sep}`)), "package.json");
  hash.update((JSON.parse(await readFile(pglitePackage, "utf8")) as { version: string }).version);
  return `${seed ? "seeded" : "migrated"}-${hash.digest("hex").slice(0, 24)}`;
}

const snapshots = new Map<string, Promise<Blob>>();

/**
 * A data directory (an uncompressed tarball) with the shim and every migration, and with the seed when `seed` is true
 * (its rows then date from when the snapshot was made: the seed's dates are relative to now()). Read from
 * `snapshotDir`, or made in memory and written there when it is missing; once per process.
 */
export function migratedSnapshot(options: SchemaOptions & { seed?: boolean }): Promise<Blob> {
  const seed = options.seed ?? false;
  const dir = options.snapshotDir;
  if (!dir) throw new Error("migratedSnapshot needs a snapshotDir");
  const id = `${seed ? "seeded" : "migrated"} in ${dir}`;
  if (!snapshots.has(id))
    snapshots.set(
      id,
      (async () => {
        const file = path.join(dir, `${await snapshotKey(options, seed)}.tar`);
        try {
          return new Blob([await readFile(file)]);
        } catch {
          const { migrationsDir, seedFile, resetAdvice } = options;
          const db = await openDatabase({ migrationsDir, seedFile, resetAdvice, seed });
          // Every start of a copy writes each file of the image into PGlite's memory, and the two template
          // databases were two fifths of them (a quarter of a start's CPU). Nothing creates a database in a copy.
          for (const template of ["template0", "template1"]) {
            await db.query(`alter database ${template} is_template false`);
            await db.query(`drop database ${template}`);
          }
          // The dump copies the files: a commit made asynchronously (the seed's purchases) is on disk only once
          // Postgres has written it, and PGlite has no WAL writer to do so in its own time.
          await db.exec("checkpoint");
          // Migrating fills two 16 MB WAL segments, two thirds of the image, which every copy would write into memory
          // again. Past a checkpoint in a fresh segment only that one is needed: the older one is removed, not kept
          // for reuse (wal_recycle, for this session only).
          await db.exec("set wal_recycle = off; select pg_switch_wal(); checkpoint; reset wal_recycle");
          const blob = await db.dumpDataDir("none");
          await db.close();
          await mkdir(dir, { recursive: true });
          const partial = `${file}.${process.pid}.${Date.now()}`;
          await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
          await rename(partial, file); // at once: a start beside this one never reads half a file
          return blob;
        }
      })(),
    );
  return snapshots.get(id)!;
}
