// The SQL sources (supabase/schemas/*.sql) and the migrations must build the same schema: functions
// (arguments, return type, body, security, search_path, volatility), tables and columns (types, defaults,
// nullability, constraints), indexes, triggers, row-level security and policies, grants, types, comments.
// A change made in one and not the other fails here, naming each difference (docs/decisions/004,
// SQL sources per area). The generator's plan is checked on the same two databases.
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourcesDatabase, type FunctionSource } from "@/scripts/db-schemas/build";
import { describeDifferences, diffCatalogues, readCatalogue, type Catalogue } from "@/scripts/db-schemas/catalogue";
import { misnamedConstraints } from "@/scripts/db-schemas/constraint-names";
import { planMigration } from "@/scripts/db-migration";
import { freshDb, type TestDb } from "./support";

let migrations: TestDb;
let migrated: Catalogue;
let sources: { db: PGlite; functions: Map<string, FunctionSource> };

beforeAll(async () => {
  migrations = await freshDb();
  migrated = await readCatalogue(migrations.pg);
  sources = await sourcesDatabase();
});

afterAll(async () => {
  await migrations?.close();
  await sources?.db.close();
});

/** The sources' catalogue after `change`, which is rolled back. */
async function sourcesAfter(change: string): Promise<Catalogue> {
  let catalogue: Catalogue | undefined;
  await sources.db.transaction(async (tx) => {
    await tx.exec(change);
    catalogue = await readCatalogue(tx);
    await tx.rollback();
  });
  return catalogue!;
}

const ALTERED_IS_POUNDS = `
  create or replace function private.is_pounds(value numeric) returns boolean
  language sql immutable parallel safe set search_path = '' as $$ select value = round(value, 2) $$;`;

describe("supabase/schemas", () => {
  it("builds the schema the migrations build", async () => {
    expect(describeDifferences(diffCatalogues(migrated, await readCatalogue(sources.db)))).toEqual([]);
  });

  it("names what differs: a function's body, a grant, a policy, a column", async () => {
    const changed = await sourcesAfter(`
      ${ALTERED_IS_POUNDS}
      grant execute on function public.get_credit_balance(uuid) to anon;
      drop policy "draws: public" on public.draws;
      alter table public.cron_runs alter column error set default 'x';`);
    expect(describeDifferences(diffCatalogues(migrated, changed))).toEqual([
      "column public.cron_runs.error: default (migrations: none; sources: 'x'::text)",
      "function private.is_pounds(numeric): definition (body or header)",
      "function public.get_credit_balance(uuid): privileges (migrations: authenticated:EXECUTE postgres:EXECUTE " +
        "service_role:EXECUTE; sources: anon:EXECUTE authenticated:EXECUTE postgres:EXECUTE service_role:EXECUTE)",
      'policy public.draws."draws: public": in migrations, not in sources',
    ]);
  });

  it("plans a migration with the changed function's source text, and refuses what it cannot write", async () => {
    const text = sources.functions.get("private.is_pounds(numeric)")!;
    const functions = new Map(sources.functions);
    functions.set("private.is_pounds(numeric)", { ...text, text: ALTERED_IS_POUNDS.trim() });
    const plan = await planMigration(
      { db: migrations.pg, catalogue: migrated },
      { catalogue: await sourcesAfter(ALTERED_IS_POUNDS), functions },
    );
    expect(plan.byHand).toEqual([]);
    expect(plan.statements).toHaveLength(1);
    expect(plan.statements[0]).toContain(ALTERED_IS_POUNDS.trim());
    expect(plan.statements[0]).toMatch(/^revoke all on function private\.is_pounds\(numeric\) from public/m);

    const refused = await planMigration(
      { db: migrations.pg, catalogue: migrated },
      { catalogue: await sourcesAfter("alter table public.cron_runs add column probe text;"), functions },
    );
    expect(refused.statements).toEqual([]);
    expect(refused.byHand).toContain("column public.cron_runs.probe: in sources, not in migrations");
  });

  it("plans a renamed constraint as a rename, keeping its rows and its comment", async () => {
    const rename =
      "alter table public.cron_runs rename constraint cron_runs_error_check to cron_runs_error_length_check;";
    const plan = await planMigration(
      { db: migrations.pg, catalogue: migrated },
      { catalogue: await sourcesAfter(rename), functions: sources.functions },
    );
    expect(plan).toEqual({ statements: [rename], byHand: [] });
  });

  it("names every check and foreign key for what it checks, and refuses Postgres's machine names", async () => {
    expect(await misnamedConstraints(migrations.pg)).toEqual([]);
    await sources.db.transaction(async (tx) => {
      await tx.exec(`
        alter table public.cron_runs add check (finished_at is null or finished_at >= started_at);
        alter table public.cron_runs add constraint cron_runs_probe_fk foreign key (id) references public.cron_runs (id);`);
      expect(await misnamedConstraints(tx)).toEqual([
        "cron_runs.cron_runs_check: a check is named <table>_<what it checks>_check",
        "cron_runs.cron_runs_probe_fk: a foreign key is named cron_runs_id_fkey",
      ]);
      await tx.rollback();
    });
  });

  it("writes every function in the one style (00-foundation.sql)", () => {
    const header =
      /\nlanguage (sql|plpgsql)( immutable| stable)?( strict)?( parallel safe)?( security definer)? set search_path = '' as \$\$\n/;
    const off = [...sources.functions]
      .filter(
        ([, f]) =>
          !/^create or replace function [a-z_]+\.[a-z_0-9]+\(/.test(f.text) ||
          !header.test(f.text) ||
          !/\n\$\$;$/.test(f.text),
      )
      .map(([identity, f]) => `${f.file}:${f.line} ${identity}`);
    expect(off).toEqual([]);
  });

  it("keeps each function in one file, once", () => {
    const files = new Set([...sources.functions.values()].map((f) => f.file));
    expect([...files].every((f) => /^\d\d-[a-z-]+\.sql$/.test(f))).toBe(true);
    expect(sources.functions.size).toBe(
      [...migrated.values()].filter(
        (e) => e.kind === "function" && !e.name.startsWith("extensions.") && !e.name.startsWith("auth."),
      ).length,
    );
  });
});
