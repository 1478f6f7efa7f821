// Builds databases to compare: one from the SQL sources (supabase/schemas/*.sql, in file-name order) and
// one from the migrations, each in memory on PGlite after the same Supabase shim the embedded backend and
// the db tests start from. The sources are run statement by statement, so a failure names its file and
// line, and each function's statement is kept: the generator copies that text into the next migration.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { shimFile } from "@labcash/embedded-supabase/db";
import { openDatabase } from "@/supabase/embedded";
import { functionIdentities } from "./catalogue";
import { splitSql, type Statement } from "./sql-split";

export const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "supabase", "schemas");

/** A function's statement in a file, and where it is. */
export interface FunctionSource extends Statement {
  file: string;
}

/** `create [or replace] function schema.name(` → the schema and name, unquoted. */
const CREATE_FUNCTION = /^create\s+(?:or\s+replace\s+)?function\s+(?:"?(\w+)"?\.)?"?(\w+)"?\s*\(/i;

/** A new in-memory database with only the shim: what hosted Supabase has before the first migration. */
export async function emptyDatabase(): Promise<PGlite> {
  const db = await PGlite.create({ extensions: { pgcrypto } });
  await db.exec(await readFile(shimFile, "utf8"));
  return db;
}

/** The database the migrations build (no seed: it adds rows, not schema). */
export function migratedDatabase(): Promise<PGlite> {
  return openDatabase({ seed: false });
}

/**
 * Runs `statements` one by one; after each `create function` it finds the function it made or replaced
 * (the newest row of that name in pg_proc) and reports its oid.
 */
export async function runStatements(
  db: PGlite,
  file: string,
  statements: Statement[],
  onFunction?: (oid: number, statement: Statement) => void,
): Promise<void> {
  for (const statement of statements) {
    try {
      await db.exec(statement.text);
    } catch (e) {
      throw new Error(`${file}:${statement.line}: ${(e as Error).message}`, { cause: e });
    }
    const fn = CREATE_FUNCTION.exec(statement.text);
    if (fn && onFunction) {
      const [row] = (
        await db.query<{ oid: number }>(
          `select p.oid::int as oid from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where p.proname = $2 and n.nspname = coalesce($1, 'public')
            order by p.xmin::text::bigint desc limit 1`,
          [fn[1] ?? null, fn[2]],
        )
      ).rows;
      onFunction(row.oid, statement);
    }
  }
}

/** The SQL source files, in the order they load. */
export async function sourceFiles(dir = schemasDir): Promise<string[]> {
  return (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
}

/** The database the sources build, and each function's statement by identity. */
export async function sourcesDatabase(
  dir = schemasDir,
): Promise<{ db: PGlite; functions: Map<string, FunctionSource> }> {
  const db = await emptyDatabase();
  const byOid = new Map<number, FunctionSource>();
  try {
    for (const file of await sourceFiles(dir)) {
      const statements = splitSql(await readFile(path.join(dir, file), "utf8"));
      await runStatements(db, file, statements, (oid, statement) => {
        const first = byOid.get(oid);
        if (first)
          throw new Error(`${file}:${statement.line}: this function is defined already (${first.file}:${first.line})`);
        byOid.set(oid, { ...statement, file });
      });
    }
  } catch (e) {
    await db.close();
    throw e;
  }
  const identities = await functionIdentities(db);
  const functions = new Map([...byOid].map(([oid, source]) => [identities.get(oid)!.identity, source]));
  return { db, functions };
}
