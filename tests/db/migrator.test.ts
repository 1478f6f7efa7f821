// The embedded migrator (the package's db.ts, with the app's schema) on a database that already exists:
// what a developer's .data/embedded is on every start after the first.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { afterAll, describe, expect, it } from "vitest";
import { StaleMigrationsError } from "@labcash/embedded-supabase/db";
import { migrate, openDatabase } from "@/supabase/embedded";
import { freshDb } from "./support";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("starting on an existing database", () => {
  it("applies nothing again, and keeps the migrations' revokes of Supabase's default privileges", async () => {
    const db = await freshDb();
    try {
      const before = await db.sql(
        "select version, applied_at from supabase_migrations.schema_migrations order by version",
      );
      await migrate(db.pg, { seed: false });
      expect(
        await db.sql("select version, applied_at from supabase_migrations.schema_migrations order by version"),
      ).toEqual(before);
      // A function or sequence made by the next migration must not be open to the API roles.
      await db.sql("create function public.next_migration_fn() returns int language sql as 'select 1'");
      await db.sql("create sequence public.next_migration_seq");
      const open = await db.sql(
        `select r.role,
                has_function_privilege(r.role, 'public.next_migration_fn()', 'EXECUTE') as fn,
                has_sequence_privilege(r.role, 'public.next_migration_seq', 'USAGE') as seq
           from unnest(array['anon', 'authenticated']) r(role)`,
      );
      expect(open).toEqual([
        { role: "anon", fn: false, seq: false },
        { role: "authenticated", fn: false, seq: false },
      ]);
    } finally {
      await db.close();
    }
  });

  it("refuses a database whose applied migrations are no longer in the folder, and changes nothing", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "labcash-migrator-"));
    dirs.push(dataDir);
    // A developer's database from before the re-cut: it records a version the folder no longer has.
    const first = await openDatabase({ dataDir, seed: false });
    await first.query(
      "insert into supabase_migrations.schema_migrations (version, name) values ('20261121100000', 'foundation')",
    );
    await first.query(
      "insert into auth.users (email, raw_user_meta_data) values ('kept@labcash.test', '{\"date_of_birth\":\"1990-01-01\"}')",
    );
    const recorded = (await first.query("select version from supabase_migrations.schema_migrations order by version"))
      .rows;
    await first.close();

    const start = openDatabase({ dataDir });
    await expect(start).rejects.toBeInstanceOf(StaleMigrationsError);
    await expect(start).rejects.toThrow(
      "This database has migrations applied that are no longer in supabase/migrations: 20261121100000_foundation. " +
        "The migrations were rewritten, so this data cannot be brought up to date. " +
        "Run `npm run db:reset` (it deletes the embedded database and its data), then start again.",
    );

    // Nothing was applied, dropped or seeded by the refused start.
    const again = await openDatabase({ dataDir, seed: false }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(StaleMigrationsError);
    const raw = await PGlite.create({ dataDir, extensions: { pgcrypto } });
    try {
      expect(
        (await raw.query("select version from supabase_migrations.schema_migrations order by version")).rows,
      ).toEqual(recorded);
      expect((await raw.query("select email from auth.users")).rows).toEqual([{ email: "kept@labcash.test" }]);
    } finally {
      await raw.close();
    }
  });
});
