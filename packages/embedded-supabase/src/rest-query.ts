// PostgREST's query-string grammar for what follows an RPC (`select`, filters, `and`/`or`, `order`, `limit`,
// `offset`) and its `Prefer` and `Range` headers, parsed into plain values that rest-sql.ts turns into SQL with
// quoted identifiers and bound values. What PostgREST parses but this backend does not carry out (embedding
// other resources, related orders, filters on embedded paths) is refused here with PGRST127 naming it, so no
// part of a request is ever dropped silently.
import { PgrstError } from "./rest";

export type Aggregate = "sum" | "avg" | "count" | "max" | "min";

export interface JsonStep {
  arrow: "->" | "->>";
  key: string;
  /** A numeric array index (`->0`, `->-1`) rather than an object key. */
  index: boolean;
}

export interface Field {
  name: string;
  json: JsonStep[];
}

export interface SelectItem {
  /** `*` is a field named "*". `count()` alone is an aggregate over "*". */
  field: Field;
  alias?: string;
  cast?: string;
  aggregate?: Aggregate;
  aggregateCast?: string;
}

export type Operator =
  | "eq"
  | "neq"
  | "gt"
  | "gte"
  | "lt"
  | "lte"
  | "like"
  | "ilike"
  | "match"
  | "imatch"
  | "in"
  | "is"
  | "isdistinct"
  | "cs"
  | "cd"
  | "ov"
  | "sl"
  | "sr"
  | "nxr"
  | "nxl"
  | "adj"
  | "fts"
  | "plfts"
  | "phfts"
  | "wfts";

export interface Condition {
  field: Field;
  negated: boolean;
  op: Operator;
  /** The operand as sent; a list for `in`. */
  value: string | string[];
  quantifier?: "any" | "all";
  /** Text search configuration for the fts family. */
  language?: string;
}

export type Logic =
  | { kind: "condition"; condition: Condition }
  | { kind: "group"; negated: boolean; op: "and" | "or"; children: Logic[] };

export interface OrderTerm {
  field: Field;
  direction?: "asc" | "desc";
  nulls?: "first" | "last";
}

export interface ReadQuery {
  select: SelectItem[];
  where: Logic[];
  order: OrderTerm[];
  limit?: number;
  offset: number;
  /** Query-string parameters that are function arguments (GET), in their order. */
  args: [string, string][];
}

const QUANT_OPS = ["eq", "gte", "gt", "lte", "lt", "like", "ilike", "match", "imatch"] as const;
const SIMPLE_OPS = ["neq", "cs", "cd", "ov", "sl", "sr", "nxr", "nxl", "adj"] as const;
const RESERVED = new Set(["select", "columns", "on_conflict"]);
const RESERVED_LAST_WORD = new Set(["order", "limit", "offset", "and", "or"]);

const queryError = (message: string, details: string) => new PgrstError(400, "PGRST100", message, details, null);

/** What PostgREST does but the embedded backend refuses (PostgREST's own "not implemented" code). */
export const notImplemented = (what: string) =>
  new PgrstError(400, "PGRST127", "Feature not implemented", `${what} is not supported by the embedded backend`, null);

/** A small cursor over one parameter's text. */
class Cursor {
  pos = 0;
  constructor(
    readonly text: string,
    readonly what: string,
  ) {}
  get rest() {
    return this.text.slice(this.pos);
  }
  peek(s: string) {
    return this.text.startsWith(s, this.pos);
  }
  take(s: string) {
    if (!this.peek(s)) return false;
    this.pos += s.length;
    return true;
  }
  end() {
    return this.pos >= this.text.length;
  }
  skipSpaces() {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") this.pos++;
  }
  fail(expected: string): never {
    throw queryError(
      `"failed to parse ${this.what} (${this.text})" (line 1, column ${this.pos + 1})`,
      this.end()
        ? `unexpected end of input expecting ${expected}`
        : `unexpected "${this.text[this.pos]}" expecting ${expected}`,
    );
  }
}

function quoted(c: Cursor): string | undefined {
  if (!c.peek('"')) return undefined;
  c.pos++;
  let out = "";
  while (!c.end() && !c.peek('"')) {
    if (c.peek("\\")) c.pos++;
    if (c.end()) break;
    out += c.text[c.pos++];
  }
  if (!c.take('"')) c.fail('"\\""');
  return out;
}

const IDENT_CHAR = /[\p{L}\p{N}_ $]/u;

/** pFieldName: a quoted name, or identifier characters joined by single dashes (not `->`). */
function fieldName(c: Cursor): string {
  const q = quoted(c);
  if (q !== undefined) return q;
  let out = "";
  for (;;) {
    const start = c.pos;
    while (!c.end() && IDENT_CHAR.test(c.text[c.pos])) c.pos++;
    if (c.pos === start) {
      if (out === "") c.fail("field name (* or [a..z0..9_$])");
      break;
    }
    out += c.text.slice(start, c.pos);
    if (c.peek("-") && !c.peek("->")) {
      c.pos++;
      out += "-";
      continue;
    }
    break;
  }
  return out.trim();
}

function jsonPath(c: Cursor): JsonStep[] {
  const steps: JsonStep[] = [];
  for (;;) {
    let arrow: JsonStep["arrow"];
    if (c.take("->>")) arrow = "->>";
    else if (c.take("->")) arrow = "->";
    else return steps;
    const index = /^-?\d+(?=->|::|\.|,|\)|$)/.exec(c.rest);
    if (index) {
      c.pos += index[0].length;
      steps.push({ arrow, key: index[0], index: true });
      continue;
    }
    const q = quoted(c);
    if (q !== undefined) {
      steps.push({ arrow, key: q, index: false });
      continue;
    }
    const key = /^[^(\-:.,>)]+(?:-(?!>)[^(\-:.,>)]+)*/.exec(c.rest);
    if (!key) c.fail("json key");
    c.pos += key[0].length;
    steps.push({ arrow, key: key[0].trim(), index: false });
  }
}

function field(c: Cursor): Field {
  c.skipSpaces();
  const name = fieldName(c);
  const json = jsonPath(c);
  c.skipSpaces();
  return { name, json };
}

/** A cast or aggregate cast: PostgREST takes identifier characters; a type name is words, optionally an array. */
function castName(c: Cursor): string {
  const m = /^[A-Za-z_][A-Za-z0-9_]*(?: [A-Za-z_][A-Za-z0-9_]*)*(?:\[\])?/.exec(c.rest);
  if (!m) c.fail("type name");
  c.pos += m[0].length;
  return m[0];
}

function alias(c: Cursor): string | undefined {
  const save = c.pos;
  try {
    c.skipSpaces();
    const name = fieldName(c);
    if (c.peek(":") && !c.peek("::")) {
      c.pos++;
      return name;
    }
  } catch {
    // not an alias
  }
  c.pos = save;
  return undefined;
}

function selectItem(c: Cursor): SelectItem {
  c.skipSpaces();
  const atEnd = () => {
    c.skipSpaces();
    return c.end() || c.peek(",") || c.peek(")");
  };
  if (c.peek("...")) throw notImplemented("Spreading an embedded resource (`...` in select) after .rpc()");
  if (c.take("*")) {
    if (!atEnd()) c.fail('"," or end of input');
    return { field: { name: "*", json: [] } };
  }
  const name = alias(c);
  c.skipSpaces();
  if (c.take("count()")) {
    const item: SelectItem = { field: { name: "*", json: [] }, aggregate: "count", alias: name };
    if (c.take("::")) item.aggregateCast = castName(c);
    if (!atEnd()) c.fail('"," or end of input');
    return item;
  }
  const f = field(c);
  if (c.peek("(") || c.peek("!")) {
    throw notImplemented(`Embedding the resource '${f.name}' in select after .rpc()`);
  }
  const item: SelectItem = { field: f, alias: name };
  if (c.take("::")) item.cast = castName(c);
  const agg = /^\.(sum|avg|count|max|min)\(\)/.exec(c.rest);
  if (agg) {
    c.pos += agg[0].length;
    item.aggregate = agg[1] as Aggregate;
    if (c.take("::")) item.aggregateCast = castName(c);
  }
  if (!atEnd()) c.fail('"::", ".", "," or end of input');
  return item;
}

export function parseSelect(text: string): SelectItem[] {
  const c = new Cursor(text, "select parameter");
  const items: SelectItem[] = [];
  if (text.trim() === "") return items;
  for (;;) {
    items.push(selectItem(c));
    c.skipSpaces();
    if (c.end()) return items;
    if (c.peek(")")) c.fail('"," or end of input');
    c.take(",");
  }
}

/** pOpExpr: `[not.]op[(quantifier)|(language)].value`; undefined when the text is no operator (a GET argument). */
/**
 * pOpExpr. Undefined when the text names no operator (on GET, a function argument); a parse error where
 * PostgREST's parser has committed to an operator (`not.`, `in.`, `is.`) and what follows does not fit it.
 */
function opExpr(text: string, field: Field): Condition | undefined {
  let rest = text;
  let negated = false;
  const fail = (expected: string): never => {
    throw queryError(`"failed to parse filter (${text})" (line 1, column 1)`, `expecting ${expected}`);
  };
  if (rest.startsWith("not.")) {
    negated = true;
    rest = rest.slice(4);
  }
  const list = /^in\.\s*\((.*)\)\s*$/s.exec(rest);
  if (list) {
    const values = splitList(list[1]);
    return { field, negated, op: "in", value: values.length === 1 && values[0] === "" ? [] : values };
  }
  if (rest.startsWith("in.")) fail('a list "(…)" after in.');
  const is = /^is\.(null|not_null|true|false|unknown)$/i.exec(rest);
  if (is) return { field, negated, op: "is", value: is[1].toLowerCase() };
  if (rest.startsWith("is.")) fail("isVal: (null, not_null, true, false, unknown)");
  if (rest.startsWith("isdistinct.")) return { field, negated, op: "isdistinct", value: rest.slice(11) };
  const fts = /^(fts|plfts|phfts|wfts)(?:\(([A-Za-z0-9_ $]+)\))?\.(.*)$/s.exec(rest);
  if (fts) {
    return {
      field,
      negated,
      op: fts[1] as Operator,
      value: fts[3],
      ...(fts[2] ? { language: fts[2].trim() } : {}),
    };
  }
  for (const op of SIMPLE_OPS) {
    if (rest.startsWith(`${op}.`)) return { field, negated, op, value: rest.slice(op.length + 1) };
  }
  for (const op of QUANT_OPS) {
    const m = new RegExp(`^${op}(?:\\((any|all)\\))?\\.(.*)$`, "s").exec(rest);
    if (m) {
      return { field, negated, op, value: m[2], ...(m[1] ? { quantifier: m[1] as "any" | "all" } : {}) };
    }
  }
  return negated ? fail("operator (eq, gt, ...)") : undefined;
}

/** pListVal: elements split on commas, each optionally double-quoted with backslash escapes. */
function splitList(text: string): string[] {
  const out: string[] = [];
  const c = new Cursor(text, "list");
  for (;;) {
    const q = c.peek('"') ? quoted(c) : undefined;
    if (q !== undefined && (c.end() || c.peek(","))) out.push(q);
    else {
      const start = c.pos;
      while (!c.end() && !c.peek(",")) c.pos++;
      out.push(c.text.slice(start, c.pos));
    }
    if (c.end()) return out;
    c.pos++;
  }
}

function fieldOf(key: string, what: string): { path: string[]; field: Field } {
  const c = new Cursor(key, what);
  const path = [fieldName(c)];
  while (c.peek(".")) {
    c.pos++;
    path.push(fieldName(c));
  }
  const json = jsonPath(c);
  if (!c.end()) c.fail('".", "->" or end of input');
  const name = path.pop()!;
  return { path, field: { name, json } };
}

/** pLogicTree: `and(a.eq.1,or(b.gt.2,not.c.is.null))`. */
function logicTree(c: Cursor): Logic {
  c.skipSpaces();
  const group = /^(not\.)?(and|or)\s*\(/.exec(c.rest);
  if (group) {
    c.pos += group[0].length;
    const children: Logic[] = [];
    for (;;) {
      children.push(logicTree(c));
      c.skipSpaces();
      if (c.take(",")) continue;
      if (c.take(")")) break;
      c.fail('"," or ")"');
    }
    return { kind: "group", negated: Boolean(group[1]), op: group[2] as "and" | "or", children };
  }
  const f = field(c);
  if (!c.take(".")) c.fail("delimiter (.)");
  // The operator and its value run to the next , or ) at this level; a quoted value or {…} may hold them.
  const start = c.pos;
  let text = "";
  const prefix = /^(not\.)?(in\.\s*\()/.exec(c.rest);
  if (prefix) {
    let depth = 0;
    let inQuote = false;
    while (!c.end()) {
      const ch = c.text[c.pos];
      if (inQuote) {
        if (ch === "\\") c.pos++;
        else if (ch === '"') inQuote = false;
      } else if (ch === '"') inQuote = true;
      else if (ch === "(") depth++;
      else if (ch === ")") {
        depth--;
        if (depth === 0) {
          c.pos++;
          break;
        }
      }
      c.pos++;
    }
    text = c.text.slice(start, c.pos);
  } else {
    const head = /^(not\.)?[a-z]+(?:\([A-Za-z0-9_ $]*\))?\./.exec(c.rest);
    if (!head) c.fail("operator (eq, gt, ...)");
    c.pos += head[0].length;
    let val: string;
    if (c.peek('"')) {
      const save = c.pos;
      const q = quoted(c);
      if (c.end() || c.peek(",") || c.peek(")")) val = q!;
      else {
        c.pos = save;
        val = readPlain(c);
      }
    } else if (c.peek("{")) {
      const close = c.text.indexOf("}", c.pos);
      if (close < 0) c.fail('"}"');
      val = c.text.slice(c.pos, close + 1);
      c.pos = close + 1;
    } else val = readPlain(c);
    text = head[0] + val;
  }
  const condition = opExpr(text, f);
  if (!condition) {
    c.pos = start;
    c.fail("operator (eq, gt, ...)");
  }
  return { kind: "condition", condition };
}

function readPlain(c: Cursor): string {
  const start = c.pos;
  while (!c.end() && !c.peek(",") && !c.peek(")")) c.pos++;
  return c.text.slice(start, c.pos);
}

function parseOrder(text: string): OrderTerm[] {
  const c = new Cursor(text, "order");
  const terms: OrderTerm[] = [];
  for (;;) {
    c.skipSpaces();
    const f = field(c);
    if (c.peek("(")) throw notImplemented(`Ordering by the embedded resource '${f.name}' after .rpc()`);
    const term: OrderTerm = { field: f };
    if (c.take(".asc")) term.direction = "asc";
    else if (c.take(".desc")) term.direction = "desc";
    if (c.take(".nullsfirst")) term.nulls = "first";
    else if (c.take(".nullslast")) term.nulls = "last";
    c.skipSpaces();
    terms.push(term);
    if (c.end()) return terms;
    if (!c.take(",")) c.fail('".asc", ".desc", ".nullsfirst", ".nullslast", "," or end of input');
  }
}

function nonNegative(key: string, value: string): number {
  if (!/^\d+$/.test(value)) {
    throw queryError(`"failed to parse ${key} (${value})"`, `${key} must be a non-negative integer`);
  }
  return Number(value);
}

/**
 * Splits a query string as PostgREST does for an RPC. On GET a parameter whose value is no operator expression
 * is a function argument; on POST every non-reserved parameter is a filter (and must parse as one).
 */
export function parseReadQuery(params: URLSearchParams, isGet: boolean): ReadQuery {
  const query: ReadQuery = { select: [{ field: { name: "*", json: [] } }], where: [], order: [], offset: 0, args: [] };
  for (const [key, value] of params) {
    const lastWord = key.split(".").pop()!;
    if (key === "select") {
      query.select = parseSelect(value);
    } else if (key === "columns" || key === "on_conflict") {
      throw notImplemented(`The '${key}' parameter on a function call`);
    } else if (RESERVED_LAST_WORD.has(lastWord)) {
      const path = key
        .split(".")
        .slice(0, -1)
        .filter((p) => p !== "not");
      if (path.length) throw notImplemented(`'${key}' on an embedded resource after .rpc()`);
      if (lastWord === "order") query.order.push(...parseOrder(value));
      else if (lastWord === "limit") query.limit = nonNegative("limit", value);
      else if (lastWord === "offset") query.offset = nonNegative("offset", value);
      else {
        const negated = key.startsWith("not.");
        const c = new Cursor(`${negated ? "not." : ""}${lastWord}${value}`, "logic tree");
        const tree = logicTree(c);
        c.skipSpaces();
        if (!c.end()) c.fail("end of input");
        query.where.push(tree);
      }
    } else if (!RESERVED.has(key)) {
      const { path, field: f } = fieldOf(key, "tree path");
      const condition = opExpr(value, f);
      if (!condition) {
        if (isGet) {
          query.args.push([key, value]);
          continue;
        }
        throw queryError(
          `"failed to parse filter (${value})" (line 1, column 1)`,
          'unexpected "' + (value[0] ?? "") + '" expecting "not" or operator (eq, gt, ...)',
        );
      }
      if (path.length) throw notImplemented(`A filter on the embedded resource '${path.join(".")}' after .rpc()`);
      query.where.push({ kind: "condition", condition });
    }
  }
  return query;
}

export interface Preferences {
  count?: "exact" | "planned" | "estimated";
  tx?: "commit" | "rollback";
  handling?: "strict" | "lenient";
  maxAffected?: number;
  timezone?: string;
  invalid: string[];
  /** Preference-Applied, as PostgREST lists it for a function call. */
  applied: string[];
}

const ACCEPTED = new Set([
  "resolution=merge-duplicates",
  "resolution=ignore-duplicates",
  "return=representation",
  "return=minimal",
  "return=headers-only",
  "count=exact",
  "count=planned",
  "count=estimated",
  "tx=commit",
  "tx=rollback",
  "missing=default",
  "missing=null",
  "handling=strict",
  "handling=lenient",
]);

export function parsePreferences(header: string | undefined): Preferences {
  const prefs = (header ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const first = (prefix: string) => prefs.find((p) => p.startsWith(prefix))?.slice(prefix.length);
  const count = first("count=");
  const tx = first("tx=");
  const handling = first("handling=");
  const maxAffected = first("max-affected=");
  const result: Preferences = {
    invalid: prefs.filter((p) => !ACCEPTED.has(p) && !p.startsWith("timezone=") && !p.startsWith("max-affected=")),
    applied: [],
  };
  if (count === "exact" || count === "planned" || count === "estimated") result.count = count;
  if (tx === "commit" || tx === "rollback") result.tx = tx;
  if (handling === "strict" || handling === "lenient") result.handling = handling;
  if (maxAffected !== undefined && /^\d+$/.test(maxAffected)) result.maxAffected = Number(maxAffected);
  const timezone = first("timezone=");
  if (timezone) result.timezone = timezone;
  if (result.count) result.applied.push(`count=${result.count}`);
  if (result.tx) result.applied.push(`tx=${result.tx}`);
  if (result.handling) result.applied.push(`handling=${result.handling}`);
  if (result.timezone) result.applied.push(`timezone=${result.timezone}`);
  if (result.maxAffected !== undefined) result.applied.push(`max-affected=${result.maxAffected}`);
  return result;
}

/** `Range: 0-9` (items): the rows wanted, or undefined for all of them. */
export function parseRangeHeader(header: string | undefined): { from: number; to?: number } | undefined {
  if (!header) return undefined;
  const m = /^(?:items=)?\s*(\d+)-(\d*)\s*$/.exec(header.trim());
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = m[2] === "" ? undefined : Number(m[2]);
  if (to !== undefined && to < from) {
    throw new PgrstError(
      416,
      "PGRST103",
      "Requested range not satisfiable",
      "The lower boundary must be lower than or equal to the upper boundary in the Range header.",
      null,
    );
  }
  return { from, to };
}
