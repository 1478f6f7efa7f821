// `npm run db:migration -- <name>`: writes the next migration from what changed in supabase/schemas.
// It builds one database from the migrations and one from the sources (in memory, PGlite), compares
// their catalogues (scripts/db-schemas/catalogue.ts) and writes supabase/migrations/<UTC time>_<name>.sql
// with only what differs:
//   - functions: the source's text of each new or changed one (`create or replace`; `drop function` first
//     when its arguments or return type changed, with the row-level policies that use it dropped and made
//     again), `drop function` for a removed one, and each written function's comment and grants;
//   - row-level policies (drop / create), grants and comments on tables, columns, sequences and schemas;
//   - a constraint renamed (`alter table … rename constraint`): one gone and one new on the same table with
//     the same definition.
// Tables, columns, other constraint changes, indexes, triggers, types, sequences and views it does not write: it lists
// them and stops, writing nothing. Write that part by hand in a migration, then run it again for the rest.
// After writing it checks the new migration brings the database to the sources, then runs `npm run db:sum`
// and `npm run db:types`. With nothing changed it says so and writes nothing.
import { spawnSync } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { migrationsDir } from "@/supabase/embedded";
import { generateFromMigrations, typesFile } from "./gen-db-types";
import { misnamedConstraints } from "./db-schemas/constraint-names";
import { migratedDatabase, sourcesDatabase, type FunctionSource } from "./db-schemas/build";
import {
  describeDifferences,
  diffCatalogues,
  keyOf,
  readCatalogue,
  type Catalogue,
  splitLast,
  type Difference,
} from "./db-schemas/catalogue";
import {
  commentStatement,
  dropPolicyStatement,
  grantStatements,
  literal,
  policyStatement,
  tableGrantStatements,
} from "./db-schemas/render";

/** The fields of each kind the generator may write; any other difference is for a person. */
const WRITABLE: Partial<Record<Difference["kind"], string[]>> = {
  table: ["privileges", "comment"],
  column: ["privileges", "comment"],
  constraint: ["comment"],
  sequence: ["privileges"],
  schema: ["privileges", "comment"],
};

export interface Plan {
  statements: string[];
  /** What must be written by hand, one line each. */
  byHand: string[];
}

/**
 * Constraints renamed in the sources: on one table, a constraint only the migrations have and one only the
 * sources have, with the same definition. Each pair is one `alter table … rename constraint`.
 */
export function constraintRenames(
  diffs: Difference[],
  migrated: Catalogue,
  sources: Catalogue,
): Array<{ table: string; from: string; to: string }> {
  const definition = (c: Catalogue, name: string) => c.get(keyOf("constraint", name))!.fields.definition;
  const gone = diffs.filter((d) => d.kind === "constraint" && d.change === "missing");
  const added = diffs.filter((d) => d.kind === "constraint" && d.change === "extra");
  const renames: Array<{ table: string; from: string; to: string }> = [];
  for (const g of gone) {
    const [table, from] = splitLast(g.name);
    const match = added.filter(
      (a) => splitLast(a.name)[0] === table && definition(sources, a.name) === definition(migrated, g.name),
    );
    // Two new constraints with the same definition: which one is the old one renamed is for a person.
    if (match.length !== 1) continue;
    added.splice(added.indexOf(match[0]), 1);
    renames.push({ table, from, to: splitLast(match[0].name)[1] });
  }
  return renames;
}

/** Functions (by identity) that objects other than policies depend on, with those objects. */
async function otherDependents(db: PGlite, identities: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const identity of identities) {
    const { rows } = await db.query<{ what: string }>(
      `select pg_describe_object(d.classid, d.objid, d.objsubid) as what
         from pg_depend d
        where d.refclassid = 'pg_proc'::regclass and d.refobjid = $1::regprocedure
          and d.classid <> 'pg_policy'::regclass and d.deptype = 'n'`,
      [identity],
    );
    if (rows.length)
      out.set(
        identity,
        rows.map((r) => r.what),
      );
  }
  return out;
}

/** Policies (their catalogue keys) that use one of these functions. */
async function dependentPolicies(db: PGlite, identities: string[]): Promise<Set<string>> {
  if (!identities.length) return new Set();
  const { rows } = await db.query<{ key: string }>(
    `select distinct format('policy %I.%I.%I', n.nspname, c.relname, p.polname) as key
       from pg_depend d join pg_policy p on p.oid = d.objid join pg_class c on c.oid = p.polrelid
       join pg_namespace n on n.oid = c.relnamespace
      where d.classid = 'pg_policy'::regclass and d.refclassid = 'pg_proc'::regclass
        and d.refobjid = any($1::text[]::regprocedure[])`,
    [identities],
  );
  return new Set(rows.map((r) => r.key));
}

/** The statements that take the migrated database to the sources, or what stops them. */
export async function planMigration(
  migrated: { db: PGlite; catalogue: Catalogue },
  sources: { catalogue: Catalogue; functions: Map<string, FunctionSource> },
): Promise<Plan> {
  const all = diffCatalogues(migrated.catalogue, sources.catalogue);
  const renames = constraintRenames(all, migrated.catalogue, sources.catalogue);
  const renamed = new Set(renames.flatMap((r) => [`${r.table}.${r.from}`, `${r.table}.${r.to}`]));
  // A renamed constraint keeps its comment; a changed one is written below, under the new name.
  const diffs = all.filter((d) => d.kind !== "constraint" || !renamed.has(d.name));
  for (const r of renames) {
    const before = migrated.catalogue.get(keyOf("constraint", `${r.table}.${r.from}`))!.fields.comment;
    const after = sources.catalogue.get(keyOf("constraint", `${r.table}.${r.to}`))!.fields.comment;
    if (before !== after)
      diffs.push({
        kind: "constraint",
        name: `${r.table}.${r.to}`,
        change: "changed",
        fields: [{ field: "comment", first: before, second: after }],
      });
  }
  const byHand: string[] = [];
  const fnDiffs = diffs.filter((d) => d.kind === "function");
  const changed = (d: Difference, ...fields: string[]) => d.fields?.some((f) => fields.includes(f.field)) ?? false;

  // Functions: dropped (gone, or arguments or return type changed) and written (new or changed).
  const dropped = fnDiffs
    .filter((d) => d.change === "missing" || changed(d, "arguments", "returns"))
    .map((d) => d.name);
  const written = fnDiffs
    .filter((d) => d.change === "extra" || changed(d, "arguments", "returns", "definition"))
    .map((d) => d.name);
  for (const [identity, users] of await otherDependents(migrated.db, dropped))
    byHand.push(`function ${identity} must be dropped, but ${users.join(", ")} use${users.length === 1 ? "s" : ""} it`);

  // Policies: changed ones and those on a dropped function are dropped and made again from the sources.
  const policyKeys = new Set(diffs.filter((d) => d.kind === "policy").map((d) => keyOf("policy", d.name)));
  for (const key of await dependentPolicies(migrated.db, dropped)) policyKeys.add(key);

  const tableGrants = new Set<string>();
  const comments: string[] = [];
  for (const d of diffs) {
    const allowed = WRITABLE[d.kind];
    if (d.kind === "function" || d.kind === "policy") continue;
    if (!allowed || d.change !== "changed" || !d.fields!.every((f) => allowed.includes(f.field))) {
      byHand.push(...describeDifferences([d]));
      continue;
    }
    const entry = sources.catalogue.get(keyOf(d.kind, d.name))!;
    for (const { field } of d.fields!) {
      if (field === "privileges") {
        if (d.kind === "table") tableGrants.add(d.name);
        else if (d.kind === "column") tableGrants.add(splitLast(d.name)[0]);
        else comments.push(...grantStatements(d.kind as "sequence" | "schema", d.name, entry.fields.privileges));
      } else if (d.kind === "constraint") {
        const [table, constraint] = splitLast(d.name);
        const comment = entry.fields.comment === undefined ? "null" : literal(entry.fields.comment);
        comments.push(`comment on constraint ${constraint} on ${table} is ${comment};`);
      } else comments.push(commentStatement(d.kind, d.name, entry.fields.comment));
    }
  }
  if (byHand.length) return { statements: [], byHand };

  const statements: string[] = renames.map((r) => `alter table ${r.table} rename constraint ${r.from} to ${r.to};`);
  for (const key of policyKeys) {
    const old = migrated.catalogue.get(key);
    if (old) statements.push(dropPolicyStatement(old));
  }
  for (const identity of dropped) statements.push(`drop function ${identity};`);
  const ordered = written
    .map((identity) => ({ identity, source: sources.functions.get(identity)! }))
    .sort((a, b) => a.source.file.localeCompare(b.source.file) || a.source.line - b.source.line);
  // Each written function with its comment and grants; then the grants and comments that changed alone.
  for (const { identity, source } of ordered) {
    const entry = sources.catalogue.get(keyOf("function", identity))!;
    statements.push(
      [
        source.leading,
        source.text,
        commentStatement("function", identity, entry.fields.comment),
        ...grantStatements("function", identity, entry.fields.privileges),
      ]
        .filter(Boolean)
        .join("\n"),
    );
  }
  for (const d of fnDiffs.filter((d) => d.change === "changed" && !written.includes(d.name))) {
    const entry = sources.catalogue.get(keyOf("function", d.name))!;
    if (changed(d, "comment")) statements.push(commentStatement("function", d.name, entry.fields.comment));
    if (changed(d, "privileges"))
      statements.push(grantStatements("function", d.name, entry.fields.privileges).join("\n"));
  }
  for (const key of policyKeys) {
    const policy = sources.catalogue.get(key);
    if (policy) statements.push(policyStatement(policy));
  }
  for (const table of tableGrants) {
    const entry = sources.catalogue.get(keyOf("table", table))!;
    const columns = entry.fields.columns
      .split(", ")
      .map((c) => sources.catalogue.get(keyOf("column", `${table}.${c}`))!);
    statements.push(tableGrantStatements(entry, columns).join("\n"));
  }
  statements.push(...comments);
  return { statements, byHand };
}

/** The migration's version: now in UTC, or one second after the last migration when that sorts later. */
async function nextVersion(): Promise<string> {
  const now = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const last =
    (await readdir(migrationsDir))
      .filter((f) => f.endsWith(".sql"))
      .sort()
      .at(-1)
      ?.split("_")[0] ?? "0";
  return now > last ? now : String(BigInt(last) + 1n);
}

async function catalogueOf(db: PGlite) {
  return { db, catalogue: await readCatalogue(db) };
}

async function main() {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error("Usage: npm run db:migration -- <name>   (lower case, digits and underscores)");
    process.exit(2);
  }
  const migrated = await catalogueOf(await migratedDatabase());
  const sources = await sourcesDatabase();
  const misnamed = await misnamedConstraints(sources.db);
  if (misnamed.length) {
    await migrated.db.close();
    await sources.db.close();
    console.error(
      [
        "db:migration wrote nothing. Name these constraints for what they check:",
        ...misnamed.map((m) => `  - ${m}`),
      ].join("\n"),
    );
    process.exit(1);
  }
  const plan = await planMigration(migrated, {
    catalogue: await readCatalogue(sources.db),
    functions: sources.functions,
  });
  await migrated.db.close();
  await sources.db.close();
  if (plan.byHand.length) {
    console.error(
      [
        "db:migration wrote nothing. These changes are not written automatically: write them in a migration by hand,",
        "then run `npm run db:migration` again for the functions, policies and grants:",
        ...plan.byHand.map((line) => `  - ${line}`),
      ].join("\n"),
    );
    process.exit(1);
  }
  if (!plan.statements.length) {
    console.log("The sources and the migrations build the same schema: nothing to write.");
    return;
  }
  const file = path.join(migrationsDir, `${await nextVersion()}_${name}.sql`);
  const header = `-- ${name}: written by \`npm run db:migration\` from supabase/schemas. Review it before committing.\n`;
  await writeFile(file, `${header}\n${plan.statements.join("\n\n")}\n`);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);

  // The proof: the migrations, with the new one, build what the sources build.
  const after = await migratedDatabase();
  const again = await sourcesDatabase();
  const left = diffCatalogues(await readCatalogue(after), await readCatalogue(again.db));
  await after.close();
  await again.db.close();
  if (left.length) {
    console.error(
      ["The new migration does not yet give the sources' schema; still different:", ...describeDifferences(left)].join(
        "\n",
      ),
    );
    process.exit(1);
  }
  const sum = spawnSync(process.execPath, [path.join(import.meta.dirname, "db-sum.mjs")], { stdio: "inherit" });
  if (sum.status !== 0) process.exit(sum.status ?? 1);
  await writeFile(typesFile, await generateFromMigrations());
  console.log(`wrote ${path.relative(process.cwd(), typesFile)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // A source that does not load says its file, line and Postgres's message; no stack trace.
  await main().catch((e: unknown) => {
    console.error(`db:migration: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
