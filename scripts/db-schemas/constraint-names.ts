// The rule for constraint names: a name says what the constraint checks, so an error naming it (a 23514 or
// 23503 from PostgREST, a failed migration, a log line) reads without opening the schema.
//   - foreign key: `<table>_<column>_fkey` (columns joined by `_`), Postgres's own default, which names the
//     column it holds;
//   - check: `<table>_<what>_check`, where <what> is the column it bounds (Postgres's default for a check
//     written on a column) or a few words for a rule between columns (`competitions_sold_within_total_check`);
//     never Postgres's default for a check written on the table, `<table>_check` / `<table>_check<N>`, which
//     says nothing. A check written as a table constraint therefore always carries `constraint <name>`.
// Held by tests/db/schemas.test.ts on the migrated schema, and by `npm run db:migration` on the sources.
import type { Queryable } from "./catalogue";

/** One line per check or foreign key of the app's schemas whose name breaks the rule. */
export async function misnamedConstraints(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ tbl: string; name: string; type: string; columns: string[] }>(
    `select c.relname as tbl, k.conname as name, k.contype::text as type,
            array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, i)
                    join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.i) as columns
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'private') and k.contype in ('c', 'f')
      order by 1, 2`,
  );
  const out: string[] = [];
  for (const r of rows) {
    if (r.type === "f") {
      const expected = `${r.tbl}_${r.columns.join("_")}_fkey`;
      if (r.name !== expected) out.push(`${r.tbl}.${r.name}: a foreign key is named ${expected}`);
    } else if (
      !r.name.startsWith(`${r.tbl}_`) ||
      !r.name.endsWith("_check") ||
      /^_check\d*$/.test(r.name.slice(r.tbl.length))
    )
      out.push(`${r.tbl}.${r.name}: a check is named <table>_<what it checks>_check`);
  }
  return out;
}
