// `npm run db:schemas:import`: writes supabase/schemas/NN-<area>.sql, the SQL sources, from the migrations.
// It replays every migration statement by statement on an in-memory PGlite, so it knows for each live
// function the text of its last definition (comments and formatting kept), and reads the rest from the
// catalogue: tables with their columns, constraints and options, indexes, triggers, row-level policies,
// grants and comments. Then it builds a database from the files it wrote and compares the two catalogues
// (scripts/db-schemas/catalogue.ts); any difference is printed and the run fails.
//
// Deterministic: the same migrations give the same files. It overwrites supabase/schemas/*.sql, so hand
// edits made since the last import are lost: run it only to carry a change made in a migration into the
// sources (DECISIONS.md "SQL sources per area").
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { migrationsDir } from "@/supabase/embedded";
import { emptyDatabase, runStatements, schemasDir, sourcesDatabase } from "./db-schemas/build";
import {
  describeDifferences,
  diffCatalogues,
  functionIdentities,
  keyOf,
  readCatalogue,
  splitLast,
  type Entry,
} from "./db-schemas/catalogue";
import { commentStatement, grantStatements, literal, policyStatement, tableGrantStatements } from "./db-schemas/render";
import { splitSql, type Statement } from "./db-schemas/sql-split";

// ---------------------------------------------------------------------------
// The areas, and where each object goes
// ---------------------------------------------------------------------------
const AREAS = {
  foundation: ["00-foundation", "Foundation: default privileges, the private schema, helpers every area uses"],
  types: ["05-types", "Types: enums and composite types the areas share"],
  settings: ["10-settings", "Settings: operator settings, the site settings every visitor sees, bank holidays"],
  accounts: ["20-accounts", "Accounts: profiles, account data, roles and guards, sign-up, approval, two-step"],
  competitions: [
    "30-competitions",
    "Competitions: competitions, entries, tickets, postal entries, draws, prizes, images",
  ],
  credits: ["40-credits-and-payments", "Credits and payments: the ledger, top-ups, refunds, payment resolutions"],
  protections: ["50-player-protection", "Player protection: limits, breaks, self-exclusion, flags, complaints"],
  spinner: ["60-spinner", "LabSpinner: wheels, segments, seeds, spins and free-route grants"],
  mail: ["70-mail", "Mail: the outbox, campaigns, marketing consent and unsubscribe tokens"],
  notifications: [
    "75-notifications",
    "Notifications: each player's notification centre, web push subscriptions and their queue, the ticket check",
  ],
  referrals: ["78-referrals", "Referrals: invite codes, referrals and the credit both players get once"],
  admin: ["80-admin-and-audit", "Admin and audit: the activity log, the dashboard, admin users and reports"],
  operations: ["90-operations", "Operations: cron runs, webhook deliveries, alerts, the health checks"],
} as const;
type Area = keyof typeof AREAS;

/** The area of what a migration first creates (its version → area). */
const BY_MIGRATION: Record<string, Area> = {
  "20261123100000": "accounts",
  "20261123100100": "admin",
  "20261123100200": "mail",
  "20261123100300": "settings",
  "20261123100400": "credits",
  "20261123100500": "competitions",
  "20261123100600": "competitions",
  "20261123110000": "credits",
  "20261123120000": "competitions",
  "20261123130000": "admin",
  "20261123130100": "competitions",
  "20261123130200": "admin",
  "20261123130300": "settings",
  "20261123130400": "mail",
  "20261123130500": "protections",
  "20261123140000": "credits",
  "20261123150000": "spinner",
  "20261123160000": "competitions",
  "20261125100000": "credits",
  "20261125100100": "competitions",
  "20261126100000": "accounts",
  "20261126110000": "accounts",
  "20261126110100": "credits",
  "20261126110200": "foundation",
  "20261126120000": "accounts",
  "20261127100000": "accounts",
  "20261127100100": "foundation",
  "20261127100200": "competitions",
  "20261127100300": "accounts",
  "20261127100400": "competitions",
  "20261127110000": "mail",
  "20261127110100": "admin",
  "20261127120000": "settings",
  "20261127130000": "competitions",
  "20261127130100": "competitions",
  "20261128100000": "competitions",
  "20261128200000": "accounts",
  "20261129200000": "settings",
  "20261129300000": "operations",
  "20261129410000": "operations",
  "20261129430000": "types",
  "20261129460000": "notifications",
  "20261129470000": "referrals",
  "20261129490000": "notifications",
  "20261129490001": "notifications",
  "20261129510000": "competitions",
  "20261129520000": "types",
  "20261129520100": "types",
  "20261130300000": "types",
  "20261130300100": "types",
  "20261130300200": "types",
  "20261130300300": "types",
  "20261130300400": "types",
  "20261202200001": "referrals",
  "20261202100201": "competitions",
  "20261202100001": "competitions",
  "20261201200601": "competitions",
  "20261201200401": "mail",
  "20261201200301": "protections",
  "20261130300402": "competitions",
  "20261130100001": "competitions",
  "20261130200100": "competitions",
  "20261130100000": "competitions",
};

/** Objects whose area is not their first migration's, by name (`schema.name` of a table or function). */
const BY_NAME: Array<[RegExp, Area]> = [
  // Used by a table's check (credit_ledger) and by CSV files of several areas.
  [/^private\.(is_pounds|csv_field)$/, "foundation"],
  [/^public\.bank_holidays$/, "settings"],
  [/^(public\.admin_(approve_users|get_approval_mode|set_approval_mode)|public\.close_account)$/, "accounts"],
  [/^private\.(ticket_bundles|enter_competition_for)$/, "competitions"],
  [/^(public\.payment_resolutions|private\.month_(credited|held)|private\.top_up_entry_missed)$/, "credits"],
  [/^public\.player_protections$/, "protections"],
  [
    /^(private|public)\.(protections_of|protection_state|play_block|protections_json|start_block|raise_refusal)$/,
    "protections",
  ],
  [/^public\.(take_break|self_exclude|get_my_protections|dismiss_limit_prompt|set_monthly_limit)$/, "protections"],
  // The rows behind the declared result types, beside the functions that return them.
  [/^private\.(complaint_row|admin_complaint_row|protections_row)$/, "protections"],
  [/^private\.marketing_consent_row$/, "mail"],
  [/^private\.account_row$/, "accounts"],
  [/^private\.admin_user_of$/, "admin"],
  [/^private\.player_intervention_of$/, "protections"],
  [/^private\.seed_row$/, "spinner"],
  [/^private\.setting_lines$/, "settings"],
  [/^private\.(wheel_row|spin_credits_row|spin_row)$/, "spinner"],
  [/^(public\.complaints|public\.complaint_numbers|private\.complaint_json)$/, "protections"],
  [
    /^public\.(submit_complaint|get_my_complaints|admin_list_complaints|admin_update_complaint|admin_get_complaint)$/,
    "protections",
  ],
  [/^public\.reveal_spinner_spin$/, "spinner"],
  [/^public\.admin_find_account$/, "admin"],
];

/** Tables the shim makes: their migrations' triggers and policies go to these areas. */
const SHIM_TABLE_AREA: Record<string, Area> = { "auth.users": "accounts", "storage.objects": "competitions" };

// ---------------------------------------------------------------------------
// Replaying the migrations
// ---------------------------------------------------------------------------
interface Origin {
  /** Migration version where the object first appeared. */
  version: string;
  /** Position of that statement over all migrations: the sources keep the migrations' order. */
  order: number;
  leading: string;
}

const CREATE_TABLE = /^create\s+table\s+(?:if\s+not\s+exists\s+)?(?:(\w+)\.)?(\w+)/i;
const ALTER_TABLE = /^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?(?:(\w+)\.)?(\w+)/i;
const CREATE_FUNCTION_NAME = /^create\s+(?:or\s+replace\s+)?function\s+(?:(\w+)\.)?(\w+)/i;

async function replayMigrations() {
  const db = await emptyDatabase();
  const baseline = await readCatalogue(db);
  const lastDefinition = new Map<number, Statement>(); // function oid → its last create statement
  const tables = new Map<string, Origin & { text: string }>();
  const alteredTables = new Set<string>(); // tables a later statement changed: written from the catalogue
  const functionNames = new Map<string, Origin>(); // schema.name → where a function of that name first appeared
  const defaultPrivileges: Statement[] = [];
  let order = 0;
  for (const file of (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort()) {
    const version = file.split("_")[0];
    const statements = splitSql(await readFile(path.join(migrationsDir, file), "utf8"));
    for (const s of statements) {
      order += 1;
      const origin = { version, order, leading: s.leading };
      const table = CREATE_TABLE.exec(s.text);
      if (table) tables.set(`${table[1] ?? "public"}.${table[2]}`, { ...origin, text: s.text });
      const altered = ALTER_TABLE.exec(s.text);
      if (altered && !/^alter\s+table\s+\S+\s+enable\s+row\s+level\s+security\s*;$/i.test(s.text))
        alteredTables.add(`${altered[1] ?? "public"}.${altered[2]}`);
      const fn = CREATE_FUNCTION_NAME.exec(s.text);
      if (fn && !functionNames.has(`${fn[1] ?? "public"}.${fn[2]}`))
        functionNames.set(`${fn[1] ?? "public"}.${fn[2]}`, origin);
      if (/^alter\s+default\s+privileges/i.test(s.text)) defaultPrivileges.push(s);
    }
    await runStatements(db, file, statements, (oid, statement) => lastDefinition.set(oid, statement));
  }
  const live = await readCatalogue(db);
  const oids = new Map([...(await functionIdentities(db)).entries()].map(([oid, f]) => [f.identity, { ...f, oid }]));
  await db.close();
  return { baseline, live, lastDefinition, tables, alteredTables, functionNames, defaultPrivileges, oids };
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------
function areaOf(name: string, origin: Origin | undefined): Area {
  for (const [pattern, area] of BY_NAME) if (pattern.test(name)) return area;
  if (SHIM_TABLE_AREA[name]) return SHIM_TABLE_AREA[name];
  if (!origin) throw new Error(`no migration creates ${name}`);
  const area = BY_MIGRATION[origin.version];
  if (!area)
    throw new Error(
      `${name} first appears in migration ${origin.version}, which has no area: add it to BY_MIGRATION (or the name to BY_NAME) in scripts/db-schemas-import.ts`,
    );
  return area;
}

const tableOf = (name: string) => splitLast(name)[0];

const CONSTRAINT_ORDER = ["PRIMARY KEY", "UNIQUE", "CHECK", "FOREIGN KEY", "EXCLUDE"];
const rank = (definition: string) => CONSTRAINT_ORDER.findIndex((p) => definition.startsWith(p));

function lowerKeywords(definition: string): string {
  return definition
    .replace(/^PRIMARY KEY/, "primary key")
    .replace(/^UNIQUE/, "unique")
    .replace(/^CHECK/, "check")
    .replace(/^FOREIGN KEY (\(.*?\)) REFERENCES/, "foreign key $1 references")
    .replace(/ ON DELETE (CASCADE|SET NULL|RESTRICT|SET DEFAULT)/, (_m, a: string) => ` on delete ${a.toLowerCase()}`)
    .replace(/ ON UPDATE (CASCADE|SET NULL|RESTRICT|SET DEFAULT)/, (_m, a: string) => ` on update ${a.toLowerCase()}`);
}

function columnLine(column: Entry, quoted: string): string {
  const f = column.fields;
  let line = `  ${quoted} ${f.type}`;
  if (f.identity === "a") line += " generated always as identity";
  else if (f.identity === "d") line += " generated by default as identity";
  if (f.generated === "s") line += ` generated always as (${f.default}) stored`;
  else if (f.default !== undefined) line += ` default ${f.default}`;
  if (f["not null"] === "true" && !f.identity) line += " not null";
  if (f.collation) line += ` collate ${f.collation}`;
  return line;
}

interface AreaText {
  tables: string[];
  /** Composite types with a field of one of this area's table row types: written after its tables. */
  types: string[];
  /** Each function's statements, by its qualified name. */
  functions: Array<{ name: string; text: string }>;
  indexes: string[];
  triggers: string[];
  policies: string[];
}

function banner(title: string): string {
  return `-- ----------------------------------------------------------------------------\n-- ${title}\n-- ----------------------------------------------------------------------------`;
}

async function main() {
  const { baseline, live, lastDefinition, tables, alteredTables, functionNames, defaultPrivileges, oids } =
    await replayMigrations();
  const entries = [...live.values()];
  const isNew = (e: Entry) => !baseline.has(keyOf(e.kind, e.name));
  const text = new Map<Area, AreaText>(
    (Object.keys(AREAS) as Area[]).map((a) => [
      a,
      { tables: [], types: [], functions: [], indexes: [], triggers: [], policies: [] },
    ]),
  );
  const tableArea = new Map<string, Area>();
  const pendingKeys: Array<{ after: string; statement: string }> = [];

  // What changed in the shim's own objects: only privileges can be restated.
  for (const e of entries) {
    const before = baseline.get(keyOf(e.kind, e.name));
    if (!before) continue;
    const changed = Object.keys({ ...e.fields, ...before.fields }).filter((f) => e.fields[f] !== before.fields[f]);
    if (changed.length && e.kind !== "default privileges")
      throw new Error(
        `the migrations change the shim's ${e.kind} ${e.name} (${changed.join(", ")}): not written by the import`,
      );
  }
  for (const e of baseline.values())
    if (!live.has(keyOf(e.kind, e.name))) throw new Error(`the migrations drop the shim's ${e.kind} ${e.name}`);

  // Schemas and default privileges: the foundation.
  const foundation = [
    "-- Function bodies are checked when they run, not when they load, so an area may call a function of a later\n-- one (pg_dump does the same).",
    "set check_function_bodies = off;",
    "",
    ...defaultPrivileges.map((s) => (s.leading ? `${s.leading}\n${s.text}` : s.text)),
  ];
  for (const e of entries.filter((e) => e.kind === "schema" && isNew(e))) {
    foundation.push("", `create schema ${e.name};`, ...grantStatements("schema", e.name, e.fields.privileges));
    if (e.fields.comment) foundation.push(commentStatement("schema", e.name, e.fields.comment));
  }

  // Types: the enums, then each composite after the composites its fields name (a later migration may have
  // given an older type a field of a newer one). A composite with a field of a table's row type goes to that
  // table's area, after its tables (placed below, once the tables' areas are known).
  const types: string[] = [];
  const newTypes = entries.filter((e) => e.kind === "type" && isNew(e));
  for (const e of newTypes)
    if (e.fields.type !== "e" && e.fields.type !== "c")
      throw new Error(`type ${e.name}: a domain is not written by the import`);
  const composites = newTypes.filter((e) => e.fields.type === "c");
  const namesIn = (attributes: string, names: Iterable<string>) =>
    [...names].filter((n) => new RegExp(`(^|[\\s,(])${n.replace(".", "\\.")}(\\[\\]|,|$|\\s)`).test(attributes));
  const ordered: Entry[] = [];
  const placed = new Set<string>();
  const place = (e: Entry, path: string[] = []) => {
    if (placed.has(e.name)) return;
    if (path.includes(e.name)) throw new Error(`composite types name each other: ${[...path, e.name].join(" → ")}`);
    for (const name of namesIn(
      e.fields.attributes ?? "",
      composites.map((c) => c.name),
    ))
      if (name !== e.name)
        place(
          composites.find((c) => c.name === name)!,
          [...path, e.name],
        );
    placed.add(e.name);
    ordered.push(e);
  };
  composites.forEach((e) => place(e));
  const liveTableNames = entries.filter((e) => e.kind === "table").map((e) => e.name);
  const typeText = (e: Entry) => [
    e.fields.type === "e"
      ? `create type ${e.name} as enum (${e.fields.labels ?? ""});`
      : `create type ${e.name} as (${e.fields.attributes});`,
    ...(e.fields.comment ? [commentStatement("type", e.name, e.fields.comment)] : []),
  ];
  const typesAfterTables: Array<{ tables: string[]; text: string[] }> = [];
  for (const e of [...newTypes.filter((e) => e.fields.type === "e"), ...ordered]) {
    const rowTypes = e.fields.type === "c" ? namesIn(e.fields.attributes ?? "", liveTableNames) : [];
    if (rowTypes.length) typesAfterTables.push({ tables: rowTypes, text: typeText(e) });
    else types.push(...typeText(e), "");
  }

  // Tables, in the order the migrations made them.
  const liveTables = entries
    .filter((e) => e.kind === "table" && isNew(e))
    .sort((a, b) => (tables.get(a.name)?.order ?? 0) - (tables.get(b.name)?.order ?? 0));
  const made = new Set<string>([...baseline.values()].filter((e) => e.kind === "table").map((e) => e.name));
  const constraintNames = new Set<string>();
  for (const t of liveTables) {
    const origin = tables.get(t.name);
    const area = areaOf(t.name, origin);
    tableArea.set(t.name, area);
    const lines: string[] = [];
    if (origin?.leading) lines.push(origin.leading);
    const sequences = entries.filter(
      (e) =>
        e.kind === "sequence" &&
        e.fields["owned by"]?.startsWith(`${t.name}.`) &&
        !live.get(keyOf("column", e.fields["owned by"]))?.fields.identity,
    );
    for (const s of sequences) {
      const defaults = {
        type: "bigint",
        start: "1",
        increment: "1",
        min: "1",
        max: "9223372036854775807",
        cache: "1",
        cycle: "false",
      };
      for (const [k, v] of Object.entries(defaults))
        if (s.fields[k] !== v) throw new Error(`sequence ${s.name}: ${k} ${s.fields[k]} is not written by the import`);
      lines.push(`create sequence ${s.name};`, ...grantStatements("sequence", s.name, s.fields.privileges));
    }
    const body: string[] = [];
    for (const quoted of t.fields.columns.split(", "))
      body.push(columnLine(live.get(keyOf("column", `${t.name}.${quoted}`))!, quoted));
    const constraints = entries
      .filter((e) => e.kind === "constraint" && tableOf(e.name) === t.name)
      .sort((a, b) => rank(a.fields.definition) - rank(b.fields.definition) || a.name.localeCompare(b.name));
    const deferred: string[] = [];
    for (const c of constraints) {
      const [, quoted] = splitLast(c.name);
      constraintNames.add(`${t.name.split(".")[0]}.${quoted}`);
      const references = /REFERENCES ([^(]+)\(/.exec(c.fields.definition)?.[1];
      const line = `constraint ${quoted} ${lowerKeywords(c.fields.definition)}`;
      if (references && references !== t.name && !made.has(references))
        deferred.push(`alter table ${t.name} add ${line};`);
      else body.push(`  ${line}`);
    }
    const options = t.fields.options ? ` with (${t.fields.options})` : "";
    // A table no later migration changed keeps its text (and the comments in it); the others are
    // written from the catalogue.
    if (origin && !alteredTables.has(t.name)) {
      lines.push(origin.text);
      deferred.length = 0;
    } else lines.push(`create table ${t.name} (\n${body.join(",\n")}\n)${options};`);
    made.add(t.name);
    if (t.fields["row level security"] === "true") lines.push(`alter table ${t.name} enable row level security;`);
    if (t.fields.forced === "true") lines.push(`alter table ${t.name} force row level security;`);
    for (const s of sequences) lines.push(`alter sequence ${s.name} owned by ${s.fields["owned by"]};`);
    if (t.fields.comment) lines.push(commentStatement("table", t.name, t.fields.comment));
    for (const quoted of t.fields.columns.split(", ")) {
      const comment = live.get(keyOf("column", `${t.name}.${quoted}`))!.fields.comment;
      if (comment) lines.push(commentStatement("column", `${t.name}.${quoted}`, comment));
    }
    for (const c of constraints)
      if (c.fields.comment)
        lines.push(`comment on constraint ${splitLast(c.name)[1]} on ${t.name} is ${literal(c.fields.comment)};`);
    const columns = t.fields.columns.split(", ").map((quoted) => live.get(keyOf("column", `${t.name}.${quoted}`))!);
    lines.push(...tableGrantStatements(t, columns));
    text.get(area)!.tables.push(lines.join("\n"));
    // A key to a table made later (in this area or a later one) waits until that table exists.
    for (const d of deferred) {
      const target = /references ([^(]+)\(/.exec(d)![1];
      const targetArea = areaOf(target, tables.get(target));
      const targetOrder = Object.keys(AREAS).indexOf(targetArea);
      if (targetOrder < Object.keys(AREAS).indexOf(area))
        throw new Error(`${d}: the referenced table's area loads first`);
      pendingKeys.push({ after: target, statement: d });
    }
    for (const p of pendingKeys.filter((k) => k.after === t.name)) text.get(area)!.tables.push(p.statement);
  }
  // No migration makes a view or a free-standing sequence yet; the import stops rather than leave one out.
  for (const e of entries.filter((e) => (e.kind === "sequence" || e.kind === "view") && isNew(e)))
    if (e.kind === "view" || !e.fields["owned by"])
      throw new Error(`${e.kind} ${e.name}: the import writes only tables' own sequences and no views; teach it first`);

  // Functions, in the order their names first appeared.
  const functionArea = new Map<string, Area>();
  const functions = entries
    .filter((e) => e.kind === "function" && isNew(e))
    .map((e) => ({ e, proc: oids.get(e.name)! }))
    .sort(
      (a, b) =>
        (functionNames.get(a.proc.name)?.order ?? 0) - (functionNames.get(b.proc.name)?.order ?? 0) ||
        a.e.name.localeCompare(b.e.name),
    );
  for (const { e, proc } of functions) {
    const statement = lastDefinition.get(proc.oid);
    if (!statement) throw new Error(`function ${e.name}: no create statement found`);
    let sql = statement.text.replace(/^create\s+function/i, "create or replace function");
    // A function renamed after its last definition keeps its text under its new name.
    const written = CREATE_FUNCTION_NAME.exec(sql)!;
    const writtenName = `${written[1] ?? "public"}.${written[2]}`;
    if (writtenName !== proc.name) sql = sql.replace(written[0], `create or replace function ${proc.name}`);
    const lines = [statement.leading, sql].filter(Boolean);
    if (e.fields.comment) lines.push(commentStatement("function", e.name, e.fields.comment));
    lines.push(...grantStatements("function", e.name, e.fields.privileges));
    const area = areaOf(proc.name, functionNames.get(proc.name) ?? functionNames.get(writtenName));
    functionArea.set(proc.name, area);
    text.get(area)!.functions.push({ name: proc.name, text: lines.join("\n") });
  }

  // Indexes (not those a constraint makes), triggers and policies go with their table.
  const areaOfTable = (name: string) => tableArea.get(name) ?? areaOf(name, undefined);
  for (const e of entries.filter((e) => e.kind === "index" && isNew(e) && !constraintNames.has(e.name))) {
    const m = /^CREATE (UNIQUE )?INDEX (\S+) ON (ONLY )?(\S+) USING btree (.*)$/.exec(e.fields.definition);
    if (!m) throw new Error(`index ${e.name}: ${e.fields.definition} is not written by the import`);
    text
      .get(areaOfTable(m[4]))!
      .indexes.push(
        `create ${m[1] ? "unique " : ""}index ${m[2]} on ${m[3] ? "only " : ""}${m[4]} ${m[5].replace(/ WHERE /, " where ")};`,
      );
  }
  for (const e of entries.filter((e) => e.kind === "trigger" && isNew(e))) {
    if (e.fields.enabled !== "O") throw new Error(`trigger ${e.name}: a disabled trigger is not written by the import`);
    // A trigger goes with its table, or with its function when that is in a later area (an area's trigger on an
    // earlier area's table, e.g. referrals on profiles): the files load in order, so the function exists by then.
    const tableAreaOf = areaOfTable(tableOf(e.name));
    const fn = /EXECUTE FUNCTION (\S+)\(/.exec(e.fields.definition)?.[1];
    const fnArea = fn ? functionArea.get(fn.includes(".") ? fn : `public.${fn}`) : undefined;
    const areas = Object.keys(AREAS) as Area[];
    const area = fnArea && areas.indexOf(fnArea) > areas.indexOf(tableAreaOf) ? fnArea : tableAreaOf;
    text.get(area)!.triggers.push(`${e.fields.definition};`);
  }
  for (const e of entries.filter((e) => e.kind === "policy" && isNew(e)))
    text.get(areaOfTable(e.fields.on))!.policies.push(policyStatement(e));
  // A type with a table's row type follows the latest area among the tables it names.
  const areaOrder = Object.keys(AREAS) as Area[];
  for (const t of typesAfterTables) {
    const area = t.tables
      .map(areaOfTable)
      .sort((a, b) => areaOrder.indexOf(a) - areaOrder.indexOf(b))
      .pop()!;
    text.get(area)!.types.push(t.text.join("\n"));
  }

  // The files.
  await mkdir(schemasDir, { recursive: true });
  for (const f of await readdir(schemasDir)) if (f.endsWith(".sql")) await rm(path.join(schemasDir, f));
  for (const area of Object.keys(AREAS) as Area[]) {
    const [file, title] = AREAS[area];
    const t = text.get(area)!;
    const parts: string[] = [
      `-- ============================================================================\n-- ${title}.\n-- The live definition of this area: change it here, then \`npm run db:migration -- <name>\`\n-- writes the migration (README "Changing the database"). Loaded after the files before it.\n-- ============================================================================`,
    ];
    if (area === "foundation") parts.push(foundation.join("\n"));
    if (area === "types" && types.length) parts.push(types.join("\n").trim());
    // A function a table's check or default calls (e.g. the list of notification kinds) comes before the tables.
    const tablesText = t.tables.join("\n");
    const calledByTables = (f: { name: string }) => tablesText.includes(`${f.name}(`);
    const before = t.functions.filter(calledByTables);
    const after = t.functions.filter((f) => !calledByTables(f));
    if (before.length) parts.push(banner("Functions the tables use"), before.map((f) => f.text).join("\n\n"));
    if (t.tables.length) parts.push(banner("Tables"), t.tables.join("\n\n"));
    if (t.types.length) parts.push(banner("Types with a table's row"), t.types.join("\n\n"));
    if (after.length) parts.push(banner("Functions"), after.map((f) => f.text).join("\n\n"));
    if (t.indexes.length) parts.push(banner("Indexes"), t.indexes.join("\n"));
    if (t.triggers.length) parts.push(banner("Triggers"), t.triggers.join("\n"));
    if (t.policies.length) parts.push(banner("Row-level policies"), t.policies.join("\n\n"));
    await writeFile(path.join(schemasDir, `${file}.sql`), `${parts.join("\n\n")}\n`);
  }

  // The proof: the files build the same schema as the migrations.
  const { db } = await sourcesDatabase();
  const differences = diffCatalogues(live, await readCatalogue(db));
  await db.close();
  if (differences.length) {
    console.error(describeDifferences(differences).join("\n"));
    throw new Error(`${differences.length} differences between the migrations and the sources written`);
  }
  console.log(`wrote ${path.relative(process.cwd(), schemasDir)}/*.sql: the same schema as the migrations`);
}

await main();
