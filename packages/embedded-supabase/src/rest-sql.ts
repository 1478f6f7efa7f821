// The SQL of one function call, shaped as PostgREST's mainCall builds it: the call in a `pgrst_source` CTE, the
// request's select, filters, order and range over it, and one row back with the total, the page's row count and
// the body already encoded. Identifiers are always quoted and every value the request carries is a bound
// parameter; the only text spliced in is fixed SQL, quoted identifiers, validated integers and type names the
// parser restricted to words.
import type { Condition, Field, Logic, OrderTerm, ReadQuery, SelectItem } from "./rest-query";
import type { Proc } from "./rest";

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export type Media = "json" | "object" | "csv";

export interface CallArguments {
  /** The whole body for a single unnamed parameter (json, jsonb, text, xml) or bytes (bytea). */
  single?: string | Buffer;
  /** Named arguments as one JSON document (a POST body), converted by Postgres as PostgREST has it do. */
  json?: Record<string, unknown>;
  /** Named arguments as text (GET query string, a form body). */
  text?: Map<string, string[]>;
}

export interface CallPlan {
  proc: Proc;
  args: CallArguments;
  query: ReadQuery;
  media: Media;
  stripNulls: boolean;
  count: boolean;
  /** Names the request uses that are computed fields: functions taking the result's row type. */
  computed: Set<string>;
  /** Rows wanted: offset and optional limit, already merged from the query string and the Range header. */
  offset: number;
  limit?: number;
}

class Params {
  readonly values: unknown[] = [];
  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const returnsScalar = (p: Proc) => !p.composite;

function callSource(plan: CallPlan, params: Params): string {
  const { proc, args } = plan;
  const fn = `public.${quoteIdent(proc.name)}`;
  const wrap = (call: string) =>
    returnsScalar(proc) ? `(select ${call} as pgrst_scalar) pgrst_call` : `${call} pgrst_call`;
  const columns = returnsScalar(proc) ? "pgrst_call.pgrst_scalar" : "pgrst_call.*";
  if (proc.params.length === 1 && proc.params[0].name === "") {
    const type = proc.params[0].type;
    const fromText = [...(args.text ?? [])].map(([k, v]) => [k, v.length === 1 ? v[0] : v]);
    const value = args.single ?? JSON.stringify(args.json ?? Object.fromEntries(fromText));
    const arg = type === "bytea" ? params.bind(value) : `${params.bind(String(value))}::${type}`;
    return `select ${columns} from ${wrap(`${fn}(${arg})`)}`;
  }
  const given = proc.params.filter((p) =>
    args.json ? Object.hasOwn(args.json, p.name) : (args.text?.has(p.name) ?? false),
  );
  const named = (p: Proc["params"][number], value: string) =>
    `${p.variadic ? "VARIADIC " : ""}${quoteIdent(p.name)} := ${value}`;
  if (args.json && given.length) {
    const body = `json_to_record(${params.bind(JSON.stringify(args.json))}::json) as pgrst_body(${given
      .map((p) => `${quoteIdent(p.name)} ${p.type}`)
      .join(", ")})`;
    const call = `${fn}(${given.map((p) => named(p, `pgrst_body.${quoteIdent(p.name)}`)).join(", ")})`;
    return `select ${columns} from ${body}, lateral ${wrap(call)}`;
  }
  const call = `${fn}(${given
    .map((p) => {
      const values = args.text!.get(p.name)!;
      if (p.variadic) return named(p, `array[${values.map((v) => params.bind(v)).join(", ")}]::${p.type}`);
      return named(p, `${params.bind(values[values.length - 1])}::${p.type}`);
    })
    .join(", ")})`;
  return `select ${columns} from ${wrap(call)}`;
}

/** Every field name a request's select, filters and order use. */
export function fieldNames(query: ReadQuery): Set<string> {
  const names = new Set<string>();
  const walk = (l: Logic) => {
    if (l.kind === "condition") names.add(l.condition.field.name);
    else l.children.forEach(walk);
  };
  query.select.forEach((i) => names.add(i.field.name));
  query.order.forEach((t) => names.add(t.field.name));
  query.where.forEach(walk);
  names.delete("*");
  return names;
}

/** A field of the result row, or a computed field (a function taking the row's table type) called on it. */
function fieldSql(plan: CallPlan, f: Field, params: Params): string {
  let sql =
    plan.proc.rowType && plan.computed.has(f.name)
      ? `public.${quoteIdent(f.name)}(pgrst_row::${plan.proc.rowType})`
      : `pgrst_row.${quoteIdent(f.name)}`;
  for (const step of f.json) {
    sql = `${sql}${step.arrow}${step.index ? `${params.bind(Number(step.key))}::int` : `${params.bind(step.key)}::text`}`;
  }
  return sql;
}

const AGGREGATE_SQL = { sum: "sum", avg: "avg", count: "count", max: "max", min: "min" } as const;

function selectSql(plan: CallPlan, params: Params): { list: string; groupBy: string[] } {
  const items: SelectItem[] = plan.query.select.length ? plan.query.select : [{ field: { name: "*", json: [] } }];
  const hasAggregate = items.some((i) => i.aggregate);
  const list: string[] = [];
  const groupBy: string[] = [];
  for (const item of items) {
    if (item.field.name === "*" && !item.aggregate) {
      list.push("pgrst_row.*");
      if (hasAggregate) groupBy.push("pgrst_row.*");
      continue;
    }
    const lastKey = item.field.json.length ? item.field.json[item.field.json.length - 1].key : item.field.name;
    let expr = item.field.name === "*" ? "*" : fieldSql(plan, item.field, params);
    if (item.cast) expr = `(${expr})::${item.cast}`;
    if (item.aggregate) {
      expr = `${AGGREGATE_SQL[item.aggregate]}(${expr})`;
      if (item.aggregateCast) expr = `(${expr})::${item.aggregateCast}`;
      list.push(`${expr} as ${quoteIdent(item.alias ?? item.aggregate)}`);
    } else {
      list.push(`${expr} as ${quoteIdent(item.alias ?? lastKey)}`);
      if (hasAggregate) groupBy.push(expr);
    }
  }
  return { list: list.join(", "), groupBy };
}

const SIMPLE_SQL: Record<string, string> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "like",
  ilike: "ilike",
  match: "~",
  imatch: "~*",
  cs: "@>",
  cd: "<@",
  ov: "&&",
  sl: "<<",
  sr: ">>",
  nxr: "&<",
  nxl: "&>",
  adj: "-|-",
};

const FTS_SQL = {
  fts: "to_tsquery",
  plfts: "plainto_tsquery",
  phfts: "phraseto_tsquery",
  wfts: "websearch_to_tsquery",
};

function conditionSql(plan: CallPlan, c: Condition, params: Params): string {
  const column = fieldSql(plan, c.field, params);
  let sql: string;
  const value = c.value as string;
  const pattern = (v: string) => (c.op === "like" || c.op === "ilike" ? v.replace(/\*/g, "%") : v);
  switch (c.op) {
    case "in": {
      const list = c.value as string[];
      sql = list.length ? `${column} in (${list.map((v) => params.bind(v)).join(", ")})` : "false";
      break;
    }
    case "is":
      sql = `${column} is ${{ null: "null", not_null: "not null", true: "true", false: "false", unknown: "unknown" }[value]}`;
      break;
    case "isdistinct":
      sql = `${column} is distinct from ${params.bind(value)}`;
      break;
    case "fts":
    case "plfts":
    case "phfts":
    case "wfts":
      sql = `${column} @@ ${FTS_SQL[c.op]}(${c.language ? `${params.bind(c.language)}::regconfig, ` : ""}${params.bind(value)})`;
      break;
    default:
      if (c.quantifier) {
        // PostgREST takes a Postgres array literal, `{a,b}`, for eq(any) and the like.
        const list = value.startsWith("{") ? value : `{${value.replace(/^\(|\)$/g, "")}}`;
        sql = `${column} ${SIMPLE_SQL[c.op]} ${c.quantifier}(${params.bind(c.op === "like" || c.op === "ilike" ? pattern(list) : list)})`;
      } else {
        sql = `${column} ${SIMPLE_SQL[c.op]} ${params.bind(pattern(value))}`;
      }
  }
  return c.negated ? `not (${sql})` : sql;
}

function logicSql(plan: CallPlan, l: Logic, params: Params): string {
  if (l.kind === "condition") return conditionSql(plan, l.condition, params);
  const inner = l.children.map((c) => `(${logicSql(plan, c, params)})`).join(` ${l.op} `);
  return l.negated ? `not (${inner})` : `(${inner})`;
}

function orderSql(plan: CallPlan, terms: OrderTerm[], params: Params): string {
  return terms
    .map(
      (t) =>
        `${fieldSql(plan, t.field, params)}${t.direction ? ` ${t.direction}` : ""}${t.nulls ? ` nulls ${t.nulls}` : ""}`,
    )
    .join(", ");
}

function bodySql(plan: CallPlan): string {
  const strip = (sql: string) => (plan.stripNulls ? `json_strip_nulls(${sql})` : sql);
  const { proc } = plan;
  const rows = returnsScalar(proc) ? "pgrst_t.pgrst_scalar" : "pgrst_t";
  if (plan.media === "csv") {
    return `(select coalesce(string_agg(k, ','), '') from (select json_object_keys(row_to_json(h)) as k from (select * from pgrst_page limit 1) h) keys)
            || E'\\n' || coalesce(string_agg(substring(pgrst_t::text, 2, length(pgrst_t::text) - 2), E'\\n'), '')`;
  }
  if (plan.media === "object" || !proc.retset) return `coalesce(${strip(`json_agg(${rows})->0`)}, 'null')::text`;
  return `coalesce(${strip(`json_agg(${rows})`)}, '[]')::text`;
}

/** The statement for a call and its bound values; one row back: total, page_total, body. */
export function callStatement(plan: CallPlan): { sql: string; params: unknown[] } {
  const params = new Params();
  const source = callSource(plan, params);
  const { list, groupBy } = selectSql(plan, params);
  const where = plan.query.where.map((l) => logicSql(plan, l, params));
  const whereSql = where.length ? ` where ${where.join(" and ")}` : "";
  const order = plan.query.order.length ? ` order by ${orderSql(plan, plan.query.order, params)}` : "";
  const group = groupBy.length ? ` group by ${groupBy.join(", ")}` : "";
  const ranged = plan.limit !== undefined || plan.offset > 0;
  const range = ranged
    ? ` limit ${plan.limit === undefined ? "all" : String(plan.limit)} offset ${String(plan.offset)}`
    : "";
  const page = `select ${list} from pgrst_source as pgrst_row${whereSql}${group}${order}${range}`;
  const pageTotal = plan.proc.retset ? "count(pgrst_t)" : "1";
  const total = !plan.count
    ? "null::bigint"
    : ranged
      ? `(select count(*) from (select 1 from pgrst_source as pgrst_row${whereSql}${group}) pgrst_counted)`
      : pageTotal;
  return {
    sql: `with pgrst_source as (${source}), pgrst_page as (${page})
          select ${total} as total, ${pageTotal} as page_total, ${bodySql(plan)} as body
            from pgrst_page pgrst_t`,
    params: params.values,
  };
}

/** A void function: the call alone. */
export function voidStatement(plan: CallPlan): { sql: string; params: unknown[] } {
  const params = new Params();
  return { sql: `${callSource(plan, params)}`, params: params.values };
}
