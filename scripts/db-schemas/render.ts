// SQL statements written from catalogue entries (scripts/db-schemas/catalogue.ts): privileges, policies
// and comments. The import writes the sources with them and the generator writes migrations with them,
// so both say a grant or a policy the same way.
import type { Entry } from "./catalogue";

/** The role that runs migrations and owns what they make; its own privileges are implicit. */
const OWNER = "postgres";
/** Who a revoke clears before the grants are restated: everyone but the owner. */
const GRANTEES = "public, anon, authenticated, service_role";
/** Every table privilege PostgreSQL 15 knows: granting them all is written `all` (MAINTAIN came in 17). */
const TABLE_PRIVILEGES = ["SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"];

export const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** `grantee:PRIVILEGE` pairs → privileges per grantee, the owner left out. */
function byGrantee(privileges: string | undefined, what: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of (privileges ?? "").split(" ").filter(Boolean)) {
    const [grantee, privilege] = item.split(":");
    if (privilege.endsWith("*")) throw new Error(`${what}: a grant with grant option is not written automatically`);
    if (grantee === OWNER) continue;
    out.set(grantee, [...(out.get(grantee) ?? []), privilege]);
  }
  return out;
}

/**
 * `revoke all` from every API role and PUBLIC, then the grants `entry` holds: the whole of its
 * privileges restated, so the statements give the same result whatever the object had before.
 */
export function grantStatements(
  objectType: "function" | "table" | "sequence" | "schema",
  name: string,
  privileges?: string,
) {
  const lines = [`revoke all on ${objectType} ${name} from ${GRANTEES};`];
  for (const [grantee, list] of byGrantee(privileges, `${objectType} ${name}`)) {
    const all = objectType === "table" && TABLE_PRIVILEGES.every((p) => list.includes(p));
    const rest = all ? list.filter((p) => !TABLE_PRIVILEGES.includes(p) && p !== "MAINTAIN") : list;
    const words = [...(all ? ["all"] : []), ...rest.map((p) => p.toLowerCase())].join(", ");
    lines.push(`grant ${words} on ${objectType} ${name} to ${grantee === "PUBLIC" ? "public" : grantee};`);
  }
  return lines;
}

/**
 * A table's privileges: the table's own (grantStatements) and then its columns', one `grant … (columns)`
 * per privilege and set of grantees. The table's `revoke all` clears the columns' grants too.
 */
export function tableGrantStatements(table: Entry, columns: Entry[]): string[] {
  const lines = grantStatements("table", table.name, table.fields.privileges);
  const groups = new Map<string, string[]>(); // "PRIVILEGE to a, b" → columns
  for (const column of columns) {
    const quoted = column.name.slice(table.name.length + 1);
    for (const [privilege, grantees] of perPrivilege(column.fields.privileges)) {
      const key = `${privilege.toLowerCase()} to ${grantees.join(", ")}`;
      groups.set(key, [...(groups.get(key) ?? []), quoted]);
    }
  }
  for (const [key, cols] of groups) {
    const [privilege, grantees] = key.split(" to ");
    lines.push(`grant ${privilege} (${cols.join(", ")}) on table ${table.name} to ${grantees};`);
  }
  return lines;
}

function perPrivilege(privileges: string | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [grantee, list] of byGrantee(privileges, "column"))
    for (const p of list) out.set(p, [...(out.get(p) ?? []), grantee === "PUBLIC" ? "public" : grantee].sort());
  return out;
}

export function commentStatement(objectType: string, name: string, comment?: string): string {
  return `comment on ${objectType} ${name} is ${comment === undefined ? "null" : literal(comment)};`;
}

/** `create policy` from a policy's entry. */
export function policyStatement(policy: Entry): string {
  const f = policy.fields;
  const lines = [
    `create policy ${f.policy} on ${f.on}`,
    `  as ${f.permissive.toLowerCase()} for ${f.command.toLowerCase()} to ${f.roles}`,
  ];
  if (f.using) lines.push(`  using (${f.using})`);
  if (f["with check"]) lines.push(`  with check (${f["with check"]})`);
  return `${lines.join("\n")};`;
}

export const dropPolicyStatement = (policy: Entry) => `drop policy ${policy.fields.policy} on ${policy.fields.on};`;
