// What a database's schema is, read from its catalogue as comparable rows: one entry per object
// (function, table, column, constraint, index, trigger, policy, sequence, view, type, schema, default
// privileges), each a small record of strings. Two databases have the same schema when their entries are
// equal; diffCatalogues names every entry that is missing, extra or different, and in which field.
// Used by tests/db/schemas.test.ts (migrations vs supabase/schemas) and the generator (scripts/db-migration.ts).
import type { PGlite } from "@electric-sql/pglite";

/** A database to read: PGlite, or a transaction of one. */
export type Queryable = Pick<PGlite, "query">;

/** Schemas the sources and migrations may touch; the system's own, and the migrator's table, are left out. */
const SKIP_SCHEMAS = "('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations')";
const USER_SCHEMA = `n.nspname not in ${SKIP_SCHEMAS} and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'`;

export type Kind =
  | "schema"
  | "default privileges"
  | "type"
  | "sequence"
  | "table"
  | "column"
  | "constraint"
  | "index"
  | "trigger"
  | "policy"
  | "view"
  | "function";

export interface Entry {
  kind: Kind;
  /** Qualified name; for a function its signature, `schema.name(argument types)` (regprocedure). */
  name: string;
  fields: Record<string, string>;
}

export type Catalogue = Map<string, Entry>;

export const keyOf = (kind: Kind, name: string) => `${kind} ${name}`;

/** `public.t."a b"` → what is before the last part, and the last part (quoted if it must be). */
export function splitLast(name: string): [string, string] {
  const m = /^(.*)\.("(?:[^"]|"")*"|[^.]*)$/.exec(name);
  if (!m) throw new Error(`cannot split ${name}`);
  return [m[1], m[2]];
}

/** Privileges as `grantee:PRIVILEGE` (PUBLIC for everyone), sorted; the owner's implicit ones included. */
const aclOf = (acl: string, kind: string, owner: string) => `(
  select coalesce(string_agg(g, ' ' order by g), '') from (
    select case a.grantee when 0 then 'PUBLIC' else pg_get_userbyid(a.grantee) end || ':' || a.privilege_type
           || case when a.is_grantable then '*' else '' end as g
      from aclexplode(coalesce(${acl}, acldefault('${kind}', ${owner}))) a
  ) s)`;

interface Row {
  kind: Kind;
  name: string;
  fields: Record<string, string | null>;
}

const QUERIES: string[] = [
  // Schemas, with who may use them.
  `select 'schema' as kind, n.nspname as name,
          jsonb_build_object('privileges', ${aclOf("n.nspacl", "n", "n.nspowner")},
                             'comment', obj_description(n.oid, 'pg_namespace')) as fields
     from pg_namespace n where ${USER_SCHEMA}`,
  // Default privileges (ALTER DEFAULT PRIVILEGES): what a new object is granted.
  `select 'default privileges' as kind,
          coalesce(n.nspname, '(all schemas)') || ' ' || d.defaclobjtype::text || ' of ' || pg_get_userbyid(d.defaclrole) as name,
          jsonb_build_object('privileges', (select string_agg(x::text, ' ' order by x::text) from unnest(d.defaclacl) x)) as fields
     from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace`,
  // Enums, composite types and domains.
  `select 'type' as kind, format('%I.%I', n.nspname, t.typname) as name,
          jsonb_build_object(
            'type', t.typtype::text,
            'labels', (select string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid),
            'attributes', (select string_agg(format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', ' order by a.attnum)
                             from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped),
            'base', case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end,
            'not null', case when t.typtype = 'd' then t.typnotnull::text end,
            'checks', (select string_agg(pg_get_constraintdef(c.oid), ' and ' order by c.conname) from pg_constraint c where c.contypid = t.oid),
            'privileges', ${aclOf("t.typacl", "T", "t.typowner")},
            'comment', obj_description(t.oid, 'pg_type')) as fields
     from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where ${USER_SCHEMA} and (t.typtype in ('e', 'd') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c'))
      and not exists (select 1 from pg_depend dep where dep.objid = t.oid and dep.deptype = 'e')`,
  // Sequences (identity columns' included: their options are part of the column).
  `select 'sequence' as kind, format('%I.%I', n.nspname, c.relname) as name,
          jsonb_build_object('type', format_type(s.seqtypid, null), 'start', s.seqstart::text, 'increment', s.seqincrement::text,
                             'min', s.seqmin::text, 'max', s.seqmax::text, 'cache', s.seqcache::text, 'cycle', s.seqcycle::text,
                             'owned by', (select format('%s.%I', dep.refobjid::regclass, a.attname) from pg_depend dep
                                            join pg_attribute a on a.attrelid = dep.refobjid and a.attnum = dep.refobjsubid
                                           where dep.objid = c.oid and dep.classid = 'pg_class'::regclass and dep.deptype in ('a', 'i')),
                             'privileges', ${aclOf("c.relacl", "s", "c.relowner")},
                             'comment', obj_description(c.oid, 'pg_class')) as fields
     from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_sequence s on s.seqrelid = c.oid
    where ${USER_SCHEMA}`,
  // Tables: row-level security, storage options, privileges, comment and the order of their columns.
  `select 'table' as kind, format('%I.%I', n.nspname, c.relname) as name,
          jsonb_build_object('row level security', c.relrowsecurity::text, 'forced', c.relforcerowsecurity::text,
                             'options', array_to_string(c.reloptions, ', '), 'persistence', c.relpersistence::text,
                             'columns', (select string_agg(quote_ident(a.attname), ', ' order by a.attnum) from pg_attribute a
                                          where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped),
                             'privileges', ${aclOf("c.relacl", "r", "c.relowner")},
                             'comment', obj_description(c.oid, 'pg_class')) as fields
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${USER_SCHEMA} and c.relkind in ('r', 'p')`,
  `select 'column' as kind, format('%I.%I.%I', n.nspname, c.relname, a.attname) as name,
          jsonb_build_object('type', format_type(a.atttypid, a.atttypmod), 'not null', a.attnotnull::text,
                             'default', pg_get_expr(d.adbin, d.adrelid), 'identity', a.attidentity::text,
                             'generated', a.attgenerated::text,
                             'collation', case when a.attcollation <> t.typcollation then a.attcollation::regcollation::text end,
                             'privileges', (select string_agg(case x.grantee when 0 then 'PUBLIC' else pg_get_userbyid(x.grantee) end
                                                              || ':' || x.privilege_type, ' ' order by 1)
                                              from aclexplode(a.attacl) x),
                             'comment', col_description(c.oid, a.attnum)) as fields
     from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     join pg_type t on t.oid = a.atttypid
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where ${USER_SCHEMA} and c.relkind in ('r', 'p', 'v', 'm') and a.attnum > 0 and not a.attisdropped`,
  `select 'constraint' as kind, format('%I.%I.%I', n.nspname, c.relname, k.conname) as name,
          jsonb_build_object('definition', pg_get_constraintdef(k.oid), 'comment', obj_description(k.oid, 'pg_constraint')) as fields
     from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
    where ${USER_SCHEMA} and k.contype <> 'n'`,
  `select 'index' as kind, format('%I.%I', n.nspname, i.relname) as name,
          jsonb_build_object('definition', pg_get_indexdef(i.oid), 'comment', obj_description(i.oid, 'pg_class')) as fields
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_namespace n on n.oid = i.relnamespace
    where ${USER_SCHEMA}`,
  `select 'trigger' as kind, format('%I.%I.%I', n.nspname, c.relname, t.tgname) as name,
          jsonb_build_object('definition', pg_get_triggerdef(t.oid), 'enabled', t.tgenabled::text,
                             'comment', obj_description(t.oid, 'pg_trigger')) as fields
     from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where ${USER_SCHEMA} and not t.tgisinternal`,
  `select 'policy' as kind, format('%I.%I.%I', p.schemaname, p.tablename, p.policyname) as name,
          jsonb_build_object('on', format('%I.%I', p.schemaname, p.tablename), 'policy', quote_ident(p.policyname),
                             'command', p.cmd, 'permissive', p.permissive, 'roles', array_to_string(p.roles, ', '),
                             'using', p.qual, 'with check', p.with_check) as fields
     from pg_policies p`,
  `select 'view' as kind, format('%I.%I', n.nspname, c.relname) as name,
          jsonb_build_object('kind', c.relkind::text, 'definition', pg_get_viewdef(c.oid), 'options', array_to_string(c.reloptions, ', '),
                             'privileges', ${aclOf("c.relacl", "r", "c.relowner")},
                             'comment', obj_description(c.oid, 'pg_class')) as fields
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${USER_SCHEMA} and c.relkind in ('v', 'm')`,
  // Functions: the full definition as Postgres prints it (body, return type, language, volatility,
  // security, settings such as search_path), and the main parts again so a difference says which.
  `select 'function' as kind, p.oid::regprocedure::text as name,
          jsonb_build_object('arguments', pg_get_function_arguments(p.oid), 'returns', pg_get_function_result(p.oid),
                             'security definer', p.prosecdef::text, 'volatility', p.provolatile::text,
                             'settings', array_to_string(p.proconfig, ', '), 'definition', pg_get_functiondef(p.oid),
                             'privileges', ${aclOf("p.proacl", "f", "p.proowner")},
                             'comment', obj_description(p.oid, 'pg_proc')) as fields
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where ${USER_SCHEMA} and p.prokind in ('f', 'p')
      and not exists (select 1 from pg_depend dep where dep.objid = p.oid and dep.deptype = 'e')`,
];

/**
 * Runs `read` with an empty search path: Postgres then prints every name with its schema, so definitions
 * and references read the same whatever the session's path, and can be written back as they are.
 */
async function withQualifiedNames<T>(db: Queryable, read: () => Promise<T>): Promise<T> {
  const [{ path }] = (await db.query<{ path: string }>("select current_setting('search_path') as path")).rows;
  await db.query("select set_config('search_path', '', false)");
  try {
    return await read();
  } finally {
    await db.query("select set_config('search_path', $1, false)", [path]);
  }
}

/** The schema of the database `db` as comparable entries. */
export function readCatalogue(db: Queryable): Promise<Catalogue> {
  return withQualifiedNames(db, async () => {
    const out: Catalogue = new Map();
    for (const sql of QUERIES) {
      for (const row of (await db.query<Row>(sql)).rows) {
        const fields: Record<string, string> = {};
        for (const [k, v] of Object.entries(row.fields)) if (v !== null && v !== "") fields[k] = v;
        out.set(keyOf(row.kind, row.name), { kind: row.kind, name: row.name, fields });
      }
    }
    return out;
  });
}

/** Every function's oid → its identity as the catalogue names it, and its `schema.name`. */
export function functionIdentities(db: Queryable): Promise<Map<number, { identity: string; name: string }>> {
  return withQualifiedNames(db, async () => {
    const { rows } = await db.query<{ oid: number; identity: string; name: string }>(
      `select p.oid::int as oid, p.oid::regprocedure::text as identity,
              n.nspname || '.' || p.proname as name
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace`,
    );
    return new Map(rows.map((r) => [r.oid, r]));
  });
}

export interface Difference {
  kind: Kind;
  name: string;
  /** `missing` from the second catalogue, `extra` in it, or the fields that differ. */
  change: "missing" | "extra" | "changed";
  fields?: Array<{ field: string; first?: string; second?: string }>;
}

/** Every entry that is not the same in both: missing from `second`, extra in it, or changed (with the fields). */
export function diffCatalogues(first: Catalogue, second: Catalogue): Difference[] {
  const out: Difference[] = [];
  for (const [key, a] of first) {
    const b = second.get(key);
    if (!b) {
      out.push({ kind: a.kind, name: a.name, change: "missing" });
      continue;
    }
    const fields = [...new Set([...Object.keys(a.fields), ...Object.keys(b.fields)])]
      .filter((f) => a.fields[f] !== b.fields[f])
      .map((field) => ({ field, first: a.fields[field], second: b.fields[field] }));
    if (fields.length) out.push({ kind: a.kind, name: a.name, change: "changed", fields });
  }
  for (const [key, b] of second) if (!first.has(key)) out.push({ kind: b.kind, name: b.name, change: "extra" });
  return out.sort((x, y) => `${x.kind} ${x.name}`.localeCompare(`${y.kind} ${y.name}`));
}

/** One line per difference, naming the object and the fields (a function's whole definition is not repeated). */
export function describeDifferences(diffs: Difference[], first = "migrations", second = "sources"): string[] {
  return diffs.map((d) => {
    if (d.change === "missing") return `${d.kind} ${d.name}: in ${first}, not in ${second}`;
    if (d.change === "extra") return `${d.kind} ${d.name}: in ${second}, not in ${first}`;
    const parts = d.fields!.map((f) =>
      f.field === "definition" && d.kind === "function"
        ? "definition (body or header)"
        : `${f.field} (${first}: ${f.first ?? "none"}; ${second}: ${f.second ?? "none"})`,
    );
    return `${d.kind} ${d.name}: ${parts.join("; ")}`;
  });
}
