// Writes lib/supabase/database.types.ts from the migrated schema, in the shape
// `supabase gen types typescript` produces, without Docker or a hosted project:
// the schema comes from an in-memory PGlite brought up exactly as the embedded
// backend brings up its own (supabase/embedded.ts: the shim, then the migrations).
//
// Functions: only those an API role (anon, authenticated, service_role) may
// execute. Those are the RPCs a client can call; an internal helper would be a
// typed call that always fails with "permission denied", and listing it would
// make every private refactor of the SQL churn the client's types.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase } from "@/supabase/embedded";

const SCHEMA = "public";
const API_ROLES = ["anon", "authenticated", "service_role"];
/** The PostgREST major the client's typed features follow (hosted Supabase runs 13 and later). */
const POSTGREST_VERSION = "13";

export const typesFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "lib/supabase/database.types.ts",
);

interface PgType {
  oid: number;
  name: string;
  type: string; // pg_type.typtype: b base, c composite, e enum, d domain, p pseudo
  elem: number; // element type of an array, else 0
  relkind: string | null; // the relation behind a composite type
  enum_values: string[] | null;
  base: number; // a domain's base type
}

interface Column {
  table: string;
  name: string;
  type: number;
  not_null: boolean;
  has_default: boolean;
  identity: string; // '' | 'a' (always) | 'd' (by default)
  generated: string; // '' | 's' (stored)
}

interface Relationship {
  table: string;
  name: string;
  columns: string[];
  one_to_one: boolean;
  referenced: string;
  referenced_columns: string[];
}

interface PgFunction {
  name: string;
  arg_names: string[] | null;
  arg_modes: string[] | null; // null when every argument is IN
  arg_types: number[]; // all arguments (proallargtypes) or the IN ones (proargtypes)
  default_count: number;
  returns: number;
  returns_set: boolean;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** The TypeScript source of database.types.ts for the schema in `db`. */
export async function generateDatabaseTypes(db: PGlite): Promise<string> {
  const types = new Map(
    (
      await db.query<PgType>(`
        select t.oid::int as oid, t.typname as name, t.typtype as type, t.typelem::int as elem,
               c.relkind::text as relkind, t.typbasetype::int as base,
               (select array_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid) as enum_values
        from pg_type t
        left join pg_class c on c.oid = t.typrelid`)
    ).rows.map((t) => [t.oid, t]),
  );
  const schemaTypes = (
    await db.query<{ oid: number }>(
      `select t.oid::int as oid from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = $1`,
      [SCHEMA],
    )
  ).rows.map((r) => r.oid);

  const tables = (
    await db.query<{ name: string; kind: string }>(
      `select c.relname as name, c.relkind::text as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f') order by c.relname`,
      [SCHEMA],
    )
  ).rows;
  const columns = (
    await db.query<Column>(
      `select c.relname as table, a.attname as name, a.atttypid::int as type, a.attnotnull as not_null,
              a.atthasdef as has_default, a.attidentity::text as identity, a.attgenerated::text as generated
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = $1 and a.attnum > 0 and not a.attisdropped`,
      [SCHEMA],
    )
  ).rows;
  const relationships = (
    await db.query<Relationship>(
      `select src.relname as table, con.conname as name,
              array(select a.attname from unnest(con.conkey) with ordinality k(n, i)
                    join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
              exists(select 1 from pg_index ix where ix.indrelid = con.conrelid and ix.indisunique
                     and ix.indpred is null and ix.indkey::int2[] @> con.conkey and con.conkey @> ix.indkey::int2[]) as one_to_one,
              dst.relname as referenced,
              array(select a.attname from unnest(con.confkey) with ordinality k(n, i)
                    join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i)::text[] as referenced_columns
       from pg_constraint con
       join pg_class src on src.oid = con.conrelid join pg_namespace sn on sn.oid = src.relnamespace
       join pg_class dst on dst.oid = con.confrelid join pg_namespace dn on dn.oid = dst.relnamespace
       where con.contype = 'f' and sn.nspname = $1 and dn.nspname = $1`,
      [SCHEMA],
    )
  ).rows;
  const functions = (
    await db.query<PgFunction>(
      `select p.proname as name, p.proargnames as arg_names, p.proargmodes::text[] as arg_modes,
              coalesce(p.proallargtypes::int[], p.proargtypes::int[]) as arg_types,
              p.pronargdefaults::int as default_count, p.prorettype::int as returns, p.proretset as returns_set
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = $1 and p.prokind = 'f'
         and exists(select 1 from unnest($2::text[]) r(role) where has_function_privilege(r.role, p.oid, 'execute'))
       order by p.proname, p.oid`,
      [SCHEMA, API_ROLES],
    )
  ).rows;

  const tsType = (oid: number): string => {
    const t = types.get(oid);
    if (!t) return "unknown";
    if (t.elem !== 0 && t.name.startsWith("_")) return `${tsType(t.elem)}[]`;
    if (t.type === "d") return tsType(t.base);
    if (schemaTypes.includes(oid)) {
      if (t.type === "e") return `Database[${q(SCHEMA)}]["Enums"][${q(t.name)}]`;
      if (t.type === "c" && t.relkind === "c") return `Database[${q(SCHEMA)}]["CompositeTypes"][${q(t.name)}]`;
      if (t.type === "c")
        return `Database[${q(SCHEMA)}][${t.relkind === "v" || t.relkind === "m" ? '"Views"' : '"Tables"'}][${q(t.name)}]["Row"]`;
    }
    switch (t.name) {
      case "bool":
        return "boolean";
      case "int2":
      case "int4":
      case "int8":
      case "float4":
      case "float8":
      case "numeric":
        return "number";
      case "bytea":
      case "bpchar":
      case "varchar":
      case "text":
      case "citext":
      case "char":
      case "name":
      case "uuid":
      case "date":
      case "time":
      case "timetz":
      case "timestamp":
      case "timestamptz":
      case "interval":
      case "inet":
        return "string";
      case "json":
      case "jsonb":
        return "Json";
      case "void":
        return "undefined";
      case "record":
        return "Record<string, unknown>";
      default:
        return "unknown";
    }
  };

  const columnsOf = (table: string) => columns.filter((c) => c.table === table).sort(byName);
  const rowType = (table: string, indent: string) =>
    block(
      columnsOf(table).map((c) => `${key(c.name)}: ${tsType(c.type)}${c.not_null ? "" : " | null"}`),
      indent,
    );
  const writeType = (table: string, indent: string, insert: boolean) =>
    block(
      columnsOf(table).map((c) => {
        if (c.identity === "a" || c.generated === "s") return `${key(c.name)}?: never`;
        const optional = !insert || !c.not_null || c.identity !== "" || c.has_default;
        return `${key(c.name)}${optional ? "?" : ""}: ${tsType(c.type)}${c.not_null ? "" : " | null"}`;
      }),
      indent,
    );
  const relationshipsOf = (table: string, indent: string) => {
    const rels = relationships
      .filter((r) => r.table === table)
      .sort((a, b) => a.name.localeCompare(b.name) || a.referenced.localeCompare(b.referenced));
    if (rels.length === 0) return "[]";
    const inner = indent + "  ";
    return `[\n${rels
      .map(
        (r) =>
          `${inner}{\n` +
          [
            `foreignKeyName: ${q(r.name)}`,
            `columns: [${r.columns.map(q).join(", ")}]`,
            `isOneToOne: ${r.one_to_one}`,
            `referencedRelation: ${q(r.referenced)}`,
            `referencedColumns: [${r.referenced_columns.map(q).join(", ")}]`,
          ]
            .map((line) => `${inner}  ${line}`)
            .join("\n") +
          `\n${inner}},`,
      )
      .join("\n")}\n${indent}]`;
  };

  const i3 = "      ";
  const tableEntries = tables
    .filter((t) => t.kind === "r" || t.kind === "p" || t.kind === "f")
    .map((t) =>
      [
        `${key(t.name)}: {`,
        `  Row: ${rowType(t.name, i3 + "  ")}`,
        `  Insert: ${writeType(t.name, i3 + "  ", true)}`,
        `  Update: ${writeType(t.name, i3 + "  ", false)}`,
        `  Relationships: ${relationshipsOf(t.name, i3 + "  ")}`,
        `}`,
      ].join(`\n${i3}`),
    );
  const viewEntries = tables
    .filter((t) => t.kind === "v" || t.kind === "m")
    .map((t) =>
      [
        `${key(t.name)}: {`,
        `  Row: ${rowType(t.name, i3 + "  ")}`,
        `  Relationships: ${relationshipsOf(t.name, i3 + "  ")}`,
        `}`,
      ].join(`\n${i3}`),
    );

  const overloads = new Map<string, PgFunction[]>();
  for (const fn of functions) overloads.set(fn.name, [...(overloads.get(fn.name) ?? []), fn]);
  const functionEntries = [...overloads.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, fns]) => {
      if (fns.length === 1) return `${key(name)}: ${functionType(fns[0], tsType, i3)}`;
      return `${key(name)}:\n${fns.map((fn) => `${i3}  | ${functionType(fn, tsType, i3 + "  ")}`).join("\n")}`;
    });

  const enumEntries = schemaTypes
    .map((oid) => types.get(oid)!)
    .filter((t) => t.type === "e")
    .sort(byName)
    .map((t) => `${key(t.name)}: ${(t.enum_values ?? []).map(q).join(" | ")}`);
  const compositeEntries = schemaTypes
    .map((oid) => types.get(oid)!)
    .filter((t) => t.type === "c" && t.relkind === "c")
    .sort(byName)
    .map(
      (t) =>
        `${key(t.name)}: ${block(
          columnsOf(t.name).map((c) => `${key(c.name)}: ${tsType(c.type)} | null`),
          i3,
        )}`,
    );

  const section = (entries: string[]) =>
    entries.length === 0 ? `{\n${i3}[_ in never]: never\n    }` : `{\n${entries.map((e) => i3 + e).join("\n")}\n    }`;

  return `${HEADER}
export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]

export type Database = {
  // Allows to automatically instantiate createClient with right options
  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)
  __InternalSupabase: {
    PostgrestVersion: ${q(POSTGREST_VERSION)}
  }
  ${SCHEMA}: {
    Tables: ${section(tableEntries)}
    Views: ${section(viewEntries)}
    Functions: ${section(functionEntries)}
    Enums: ${section(enumEntries)}
    CompositeTypes: ${section(compositeEntries)}
  }
}
${HELPERS}
export const Constants = {
  ${SCHEMA}: {
    Enums: {${
      enumEntries.length === 0
        ? ""
        : `\n${schemaTypes
            .map((oid) => types.get(oid)!)
            .filter((t) => t.type === "e")
            .sort(byName)
            .map((t) => `      ${key(t.name)}: [${(t.enum_values ?? []).map(q).join(", ")}],`)
            .join("\n")}\n    `
    }},
  },
} as const
`;
}

function functionType(fn: PgFunction, tsType: (oid: number) => string, indent: string): string {
  return block(
    [`Args: ${argsType(fn, tsType, indent + "  ")}`, `Returns: ${returnsType(fn, tsType, indent + "  ")}`],
    indent,
  );
}

function argsType(fn: PgFunction, tsType: (oid: number) => string, indent: string): string {
  const modes = fn.arg_modes ?? fn.arg_types.map(() => "i");
  const inArgs = fn.arg_types
    .map((type, i) => ({ type, name: fn.arg_names?.[i] ?? "", mode: modes[i] }))
    .filter((a) => a.mode === "i" || a.mode === "b" || a.mode === "v");
  if (inArgs.length === 0) return "never";
  // Postgres gives defaults to the last pronargdefaults input arguments.
  const firstDefault = inArgs.length - fn.default_count;
  return block(
    inArgs.map((a, i) => `${key(a.name)}${i >= firstDefault ? "?" : ""}: ${tsType(a.type)}`),
    indent,
  );
}

function returnsType(fn: PgFunction, tsType: (oid: number) => string, indent: string): string {
  const modes = fn.arg_modes ?? [];
  const tableColumns = fn.arg_types
    .map((type, i) => ({ type, name: fn.arg_names?.[i] ?? "", mode: modes[i] }))
    .filter((a) => a.mode === "t" || a.mode === "o");
  const base =
    tableColumns.length > 0
      ? block(
          tableColumns.map((c) => `${key(c.name)}: ${tsType(c.type)}`),
          indent,
        )
      : tsType(fn.returns);
  return fn.returns_set ? `${base}[]` : base;
}

/** A multi-line object type whose closing brace lines up with `indent` minus one level. */
function block(members: string[], indent: string): string {
  if (members.length === 0) return "Record<PropertyKey, never>";
  return `{\n${members.map((m) => `${indent}  ${m}`).join("\n")}\n${indent}}`;
}

function q(s: string): string {
  return JSON.stringify(s);
}

/** An object key as Prettier leaves it: bare when it is an identifier. */
function key(s: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(s) ? s : q(s);
}

const HEADER = `// Generated by \`npm run db:types\` (scripts/gen-db-types.ts) from supabase/migrations.
// Do not edit: change the SQL and regenerate. tests/unit/database-types.test.ts fails when stale.
`;

// The helper types \`supabase gen types typescript\` appends, unchanged in meaning.
const HELPERS = `
type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Insert: infer I
      }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        Update: infer U
      }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never
`;

/** Migrates a fresh in-memory database (no seed: it adds rows, not types) and renders its types. */
export async function generateFromMigrations(): Promise<string> {
  const db = await openDatabase({ seed: false });
  try {
    return await generateDatabaseTypes(db);
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(typesFile, await generateFromMigrations());
  console.log(`wrote ${path.relative(process.cwd(), typesFile)}`);
}
