// The migrator: the shim, then an app's migrations in order and each once, then its seed once; a database that
// records migrations the folder no longer has is refused before anything changes; a new database may start from a
// migrated snapshot instead.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { afterAll, describe, expect, it } from "vitest";
import { StaleMigrationsError, migrate, openDatabase } from "../src/db";
import { schema } from "./support";

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "embedded-supabase-db-"));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("openDatabase", () => {
  it("applies the shim, every migration in order and the seed, and records them", async () => {
    const db = await openDatabase(schema);
    try {
      const versions = await db.query(
        "select version, name from supabase_migrations.schema_migrations order by version",
      );
      expect(versions.rows).toEqual([
        { version: "20260101000000", name: "notes" },
        { version: "20260102000000", name: "motd_author" },
        { version: "seed", name: "seed.sql" },
      ]);
      // The seed ran after the second migration, which made its column.
      expect((await db.query("select line, author from public.motd")).rows).toEqual([
        { line: "hello from the seed", author: "seed" },
      ]);
      expect((await db.query("select auth.uid() as uid")).rows).toEqual([{ uid: null }]);
    } finally {
      await db.close();
    }
  });

  it("applies nothing twice on an existing database", async () => {
    const dir = await dataDir();
    await (await openDatabase({ ...schema, dataDir: dir })).close();
    const db = await openDatabase({ ...schema, dataDir: dir });
    try {
      await migrate(db, schema);
      expect((await db.query("select count(*)::int as n from public.motd")).rows).toEqual([{ n: 1 }]);
    } finally {
      await db.close();
    }
  });

  it("gives the shim alone without a migrations folder, and skips the seed when asked", async () => {
    const bare = await openDatabase();
    try {
      expect((await bare.query("select to_regclass('auth.users') is not null as auth")).rows).toEqual([{ auth: true }]);
      expect((await bare.query("select to_regclass('public.notes') as notes")).rows).toEqual([{ notes: null }]);
    } finally {
      await bare.close();
    }
    const unseeded = await openDatabase({ ...schema, seed: false });
    try {
      expect((await unseeded.query("select count(*)::int as n from public.motd")).rows).toEqual([{ n: 0 }]);
    } finally {
      await unseeded.close();
    }
  });

  it("refuses a database with migrations the folder no longer has, says what to do, and changes nothing", async () => {
    const dir = await dataDir();
    const first = await openDatabase({ ...schema, dataDir: dir, seed: false });
    await first.query(
      "insert into supabase_migrations.schema_migrations (version, name) values ('20251231000000', 'gone')",
    );
    await first.close();

    const advice = "Run `make reset`, then start again.";
    const refused = await openDatabase({ ...schema, dataDir: dir, resetAdvice: advice }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StaleMigrationsError);
    expect((refused as StaleMigrationsError).missing).toEqual(["20251231000000_gone"]);
    expect((refused as Error).message).toBe(
      `This database has migrations applied that are no longer in ${path.relative(process.cwd(), schema.migrationsDir!)}: ` +
        "20251231000000_gone. The migrations were rewritten, so this data cannot be brought up to date. " +
        advice,
    );
    // Neither seeded nor recorded anything.
    const raw = await PGlite.create({ dataDir: dir, extensions: { pgcrypto } });
    try {
      expect((await raw.query("select count(*)::int as n from public.motd")).rows).toEqual([{ n: 0 }]);
      expect(
        (await raw.query("select version from supabase_migrations.schema_migrations order by version")).rows,
      ).toEqual([{ version: "20251231000000" }, { version: "20260101000000" }, { version: "20260102000000" }]);
    } finally {
      await raw.close();
    }
  });

  it("starts a new database from the migrated snapshot, made once and then read, and seeds the copy", async () => {
    const snapshotDir = await dataDir();
    const versionsOf = async (db: PGlite) =>
      (await db.query("select version from supabase_migrations.schema_migrations order by version")).rows;
    const first = await openDatabase({ ...schema, snapshotDir, dataDir: await dataDir() });
    try {
      expect(await versionsOf(first)).toEqual([
        { version: "20260101000000" },
        { version: "20260102000000" },
        { version: "seed" },
      ]);
      expect((await first.query("select line from public.motd")).rows).toEqual([{ line: "hello from the seed" }]);
    } finally {
      await first.close();
    }

    // The snapshot holds the migrations alone: the seed is each start's.
    const [file, ...others] = await readdir(snapshotDir);
    expect(others).toEqual([]);
    expect(file).toMatch(/^migrated-[0-9a-f]{24}\.tar$/);
    const snapshotFile = path.join(snapshotDir, file);
    const markedDir = await dataDir();
    const copy = await PGlite.create({
      loadDataDir: new Blob([await readFile(snapshotFile)]),
      extensions: { pgcrypto },
    });
    try {
      expect(await versionsOf(copy)).toEqual([{ version: "20260101000000" }, { version: "20260102000000" }]);
      expect((await copy.query("select count(*)::int as n from public.motd")).rows).toEqual([{ n: 0 }]);
      // Marked, and kept under the same name in another folder (as another process would find it): a new database
      // there must come from this file, not from a replay.
      await copy.exec("create table public.from_the_snapshot (); checkpoint");
      await writeFile(path.join(markedDir, file), Buffer.from(await (await copy.dumpDataDir("none")).arrayBuffer()));
    } finally {
      await copy.close();
    }
    const second = await openDatabase({ ...schema, snapshotDir: markedDir, dataDir: await dataDir() });
    try {
      expect((await second.query("select to_regclass('public.from_the_snapshot') is not null as marked")).rows).toEqual(
        [{ marked: true }],
      );
      expect((await second.query("select count(*)::int as n from public.motd")).rows).toEqual([{ n: 1 }]);
    } finally {
      await second.close();
    }
  });
});
