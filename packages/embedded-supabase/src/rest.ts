// PostgREST-compatible RPC under /rest/v1/rpc/{fn}: the only way the app
// reaches the database. Each call is one transaction that takes the caller's
// role and JWT claims (so auth.uid() and the grants work as on Supabase), picks
// the overload PostgREST would (named arguments, or one unnamed parameter taking
// the body), applies what the request adds after the call (rest-query.ts parses
// it, rest-sql.ts builds it) and answers with PostgREST's shapes, headers, error
// body and status codes. Each database keeps what pg_proc said about a name and
// checks it on every call against the name's function oids and default counts
// (a drop, a new overload or a new default changes them), so a new migration or
// a test's function is callable at once.
import type { IncomingMessage } from "node:http";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Caller } from "./callers";
import { parseBody, readBody, type Reply } from "./http";
import { closestMatch } from "./rest-fuzzy";
import { notImplemented, parsePreferences, parseRangeHeader, parseReadQuery, type ReadQuery } from "./rest-query";
import { callStatement, fieldNames, voidStatement, type CallArguments, type CallPlan, type Media } from "./rest-sql";

export class PgrstError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  reply(): Reply {
    return {
      status: this.status,
      body: { code: this.code, details: this.details, hint: this.hint, message: this.message },
      headers: this.headers,
    };
  }
}

/** An input parameter as PostgREST's schema cache keeps it: an unnamed one is called "". */
export interface ProcParam {
  name: string;
  type: string;
  required: boolean;
  variadic: boolean;
}

export interface Proc {
  oid: number;
  name: string;
  params: ProcParam[];
  retset: boolean;
  /** A composite result (a row type, or OUT/INOUT/TABLE parameters), answered as objects. */
  composite: boolean;
  void: boolean;
  volatility: "i" | "s" | "v";
  /** For a result of a table's row type: its qualified name (computed fields take it) and columns. */
  rowType: string | null;
  columns: string[];
}
/** PostgREST's mapping of SQLSTATE to HTTP status (docs: errors.html#status-codes). */
export function statusForSqlState(code: string, anonymous: boolean): number {
  if (/^PT\d{3}$/.test(code)) return Number(code.slice(2));
  if (code === "42501") return anonymous ? 401 : 403;
  const exact: Record<string, number> = {
    "23503": 409,
    "23505": 409,
    "25006": 405,
    P0001: 400,
    "42883": 404,
    "42P01": 404,
  };
  if (code in exact) return exact[code];
  const byClass: Record<string, number> = {
    "08": 503,
    "09": 500,
    "0L": 403,
    "0P": 403,
    "25": 500,
    "28": 403,
    "2D": 500,
    "38": 500,
    "39": 500,
    "3B": 500,
    "40": 500,
    "53": 503,
    "54": 413,
    "55": 500,
    "57": 500,
    "58": 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/** Per database: what loadProcs read for a name, and the procVersion it was read at. */
const procCache = new WeakMap<PGlite, Map<string, { version: string; procs: Proc[] }>>();

/**
 * What can change about a name's functions while the server runs and matters here: which exist (their oids:
 * a drop and create makes a new one, as does a new overload) and how many defaults each has (`create or
 * replace` may add some). Their argument names and types and return type cannot change without a new oid.
 * About a tenth of the cost of loadProcs, which was the largest part of an RPC (docs/benchmarks.md, bench:http).
 */
async function procVersion(tx: Transaction, name: string): Promise<string> {
  const { rows } = await tx.query<{ version: string }>(
    `select coalesce(string_agg(p.oid::text || '/' || p.pronargdefaults, ',' order by p.oid), '') as version
       from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.proname = $1 and p.prokind = 'f'`,
    [name],
  );
  return rows[0].version;
}

/** The functions called `name`, from the database's cache while their procVersion holds. */
async function procsFor(db: PGlite, tx: Transaction, name: string): Promise<Proc[]> {
  let cache = procCache.get(db);
  if (!cache) procCache.set(db, (cache = new Map()));
  const version = await procVersion(tx, name);
  const known = cache.get(name);
  if (known?.version === version) return known.procs;
  const procs = await loadProcs(tx, name);
  cache.set(name, { version, procs });
  return procs;
}

/**
 * PostgREST's schema cache query, for one name: a function is callable when all its input parameters are named,
 * or it has exactly one unnamed one of type bytea, json, jsonb, text or xml (which takes the whole body).
 * Overloads come in PostgREST's order (fewest parameters first, then by name and type).
 */
const PROCS_SQL = `
  with args as (
    select p.oid,
           coalesce(json_agg(json_build_object(
             'name', coalesce(a.name, ''), 'type', a.type::regtype::text,
             'required', a.idx <= (p.pronargs - p.pronargdefaults), 'variadic', coalesce(a.mode = 'v', false))
             order by a.idx) filter (where a.type is not null), '[]') as params,
           case count(a.type) - count(nullif(a.name, '')) filter (where a.type is not null)
             when 0 then true
             when 1 then (array_agg(a.type) filter (where a.type is not null))[1]
                         in ('bytea'::regtype, 'json'::regtype, 'jsonb'::regtype, 'text'::regtype, 'xml'::regtype)
             else false
           end as callable
      from pg_proc p
      left join lateral unnest(p.proargnames, p.proargtypes::oid[], p.proargmodes::text[])
             with ordinality as a(name, type, mode, idx) on true
     where p.pronamespace = 'public'::regnamespace and p.prokind = 'f' and ($1::text is null or p.proname = $1)
     group by p.oid
  )
  select p.oid::int as oid, p.proname as name, args.params, p.proretset as retset,
         (t.typtype = 'c' or coalesce(p.proargmodes::text[] && '{t,b,o}', false)) as composite,
         p.prorettype = 'void'::regtype as void, p.provolatile as volatility,
         case when t.typrelid <> 0 then format('%I.%I', tn.nspname, t.typname) end as "rowType",
         coalesce(case when t.typrelid <> 0 then
                    (select json_agg(att.attname order by att.attnum) from pg_attribute att
                      where att.attrelid = t.typrelid and att.attnum > 0 and not att.attisdropped)
                  else (select json_agg(o.name order by o.idx)
                          from unnest(p.proargnames, p.proargmodes::text[]) with ordinality as o(name, mode, idx)
                         where o.mode in ('o', 'b', 't')) end, '[]') as columns
    from pg_proc p
    join args on args.oid = p.oid
    join pg_type t on t.oid = p.prorettype
    join pg_namespace tn on tn.oid = t.typnamespace
   where args.callable and t.oid <> 'trigger'::regtype`;

async function loadProcs(tx: Transaction, name: string | null): Promise<Proc[]> {
  const { rows } = await tx.query<Proc>(PROCS_SQL, [name]);
  return rows.sort(
    (a, b) =>
      a.params.length - b.params.length ||
      a.params
        .map((p) => `${p.name}\u0000${p.type}`)
        .join("\u0001")
        .localeCompare(b.params.map((p) => `${p.name}\u0000${p.type}`).join("\u0001")),
  );
}

/**
 * The names a request uses that are not columns of the function's row type but functions taking it (PostgREST's
 * computed fields). Anything else unknown is left to Postgres, which answers 42703 as PostgREST does.
 */
async function computedFields(tx: Transaction, proc: Proc, query: ReadQuery): Promise<Set<string>> {
  const unknown = [...fieldNames(query)].filter((name) => !proc.columns.includes(name));
  if (!proc.rowType || !unknown.length) return new Set();
  const { rows } = await tx.query<{ name: string }>(
    `select p.proname as name from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.prokind = 'f' and p.pronargs = 1
        and p.proargtypes[0] = $1::regtype and p.proname = any($2::text[])`,
    [proc.rowType, unknown],
  );
  return new Set(rows.map((r) => r.name));
}

/** Content types that call a function with a single unnamed parameter of one type, as PostgREST maps them. */
const SINGLE_PARAM_TYPES: Record<string, string> = {
  "application/json": "json|jsonb",
  "text/plain": "text",
  "text/xml": "xml",
  "application/octet-stream": "bytea",
};

/** PostgREST's findProc: the overload whose parameters fit the keys, else the single unnamed parameter one. */
async function findProc(
  tx: Transaction,
  procs: Proc[],
  fn: string,
  keys: string[],
  contentType: string,
  isPost: boolean,
): Promise<Proc> {
  const keySet = new Set(keys);
  const matchesParams = (p: Proc) => {
    if (!p.params.length)
      return keys.length === 0 && !(isPost && contentType in SINGLE_PARAM_TYPES && contentType !== "application/json");
    const required = p.params.filter((a) => a.required).map((a) => a.name);
    const optional = new Set(p.params.filter((a) => !a.required).map((a) => a.name));
    const left = keys.filter((k) => !optional.has(k));
    return (
      left.length === required.length && required.every((r) => keySet.has(r)) && new Set(left).size === left.length
    );
  };
  const singleUnnamed = (p: Proc) =>
    isPost &&
    p.params.length === 1 &&
    p.params[0].name === "" &&
    (SINGLE_PARAM_TYPES[contentType] ?? "").split("|").includes(p.params[0].type);
  const named = procs.filter(matchesParams);
  const fallback = procs.filter((p) => !matchesParams(p) && singleUnnamed(p));
  const chosen = named.length ? named : fallback;
  if (chosen.length === 1) return chosen[0];
  if (chosen.length > 1) {
    throw new PgrstError(
      300,
      "PGRST203",
      `Could not choose the best candidate function between: ${chosen
        .map((p) => `public.${fn}(${p.params.map((a) => `${a.name} => ${a.type}`).join(", ")})`)
        .join(", ")}`,
      null,
      "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    );
  }
  throw await noSuchFunction(tx, procs, fn, keys, contentType, isPost);
}

/** PGRST202 in PostgREST's words, with its fuzzy "Perhaps you meant" hint. */
async function noSuchFunction(
  tx: Transaction,
  procs: Proc[],
  fn: string,
  keys: string[],
  contentType: string,
  isPost: boolean,
): Promise<PgrstError> {
  const sorted = [...new Set(keys)].sort();
  const onlySingle = isPost && ["text/plain", "text/xml", "application/octet-stream"].includes(contentType);
  const listed = sorted.length ? `(${sorted.join(", ")})` : " without parameters";
  const withParams = sorted.length
    ? ` with parameter${sorted.length > 1 ? "s" : ""} ${sorted.join(", ")}`
    : " without parameters";
  const searched = !isPost
    ? withParams
    : contentType === "text/plain"
      ? " with a single unnamed text parameter"
      : contentType === "text/xml"
        ? " with a single unnamed xml parameter"
        : contentType === "application/octet-stream"
          ? " with a single unnamed bytea parameter"
          : `${withParams} or with a single unnamed json/jsonb parameter`;
  let hint: string | null = null;
  if (!onlySingle) {
    if (procs.length) {
      const signature = (names: string[]) => `(${[...names].sort().join(", ")})`;
      const best = closestMatch(
        procs.map((p) => signature(p.params.map((a) => a.name))),
        signature(sorted),
        0.33,
      );
      if (best) hint = `Perhaps you meant to call the function public.${fn}${best}`;
    } else {
      const names = [...new Set((await loadProcs(tx, null)).map((p) => p.name))];
      const best = closestMatch(names, fn, 0.75);
      if (best) hint = `Perhaps you meant to call the function public.${best}`;
    }
  }
  return new PgrstError(
    404,
    "PGRST202",
    `Could not find the function public.${fn}${onlySingle ? "" : listed} in the schema cache`,
    `Searched for the function public.${fn}${searched}, but no matches were found in the schema cache.`,
    hint,
  );
}
interface PgError {
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

/**
 * The rest of the transaction runs as the caller, as PostgREST runs it: their database role and their
 * JWT claims (`auth.uid()`, `auth.jwt()`), so grants and row-level policies decide. The Storage API
 * (storage.ts) runs its statements on storage.objects the same way.
 */
export async function actAs(tx: Transaction, caller: Caller, method: string, readOnly = false): Promise<void> {
  // One statement, as PostgREST does it: set_config('role', …, true) is `set local role`, and each statement is
  // a round through PGlite's protocol on the backend's one thread (every RPC pays it). A read-only transaction is
  // set in the same statement (Postgres allows turning read-only on at any point).
  await tx.query(
    `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.method', $3, true)${
      readOnly ? ", set_config('transaction_read_only', 'on', true)" : ""
    }`,
    [caller.role, JSON.stringify(caller.claims), method],
  );
}

export interface RpcRequest {
  req: IncomingMessage;
  method: string;
  fn: string;
  url: URL;
  caller: Caller;
}

/** Rolls the transaction back while keeping the answer (Prefer: tx=rollback). */
class RolledBack extends Error {
  constructor(readonly reply: Reply) {
    super("rolled back");
  }
}

const MEDIA_TYPES: Record<string, Media> = {
  "*/*": "json",
  "application/*": "json",
  "application/json": "json",
  "application/vnd.pgrst.array+json": "json",
  "application/vnd.pgrst.array": "json",
  "application/vnd.pgrst.object+json": "object",
  "application/vnd.pgrst.object": "object",
  "text/csv": "csv",
};

const CONTENT_TYPES: Record<Media, string> = {
  json: "application/json; charset=utf-8",
  object: "application/vnd.pgrst.object+json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
};

/** The first media type of Accept this backend produces for a function (406 PGRST107 when none). */
function negotiate(accept: string | undefined): { media: Media; stripNulls: boolean } {
  if (!accept || !accept.trim()) return { media: "json", stripNulls: false };
  // Highest quality first (a stable sort keeps the client's order among equals), as PostgREST reads Accept.
  const offered = accept
    .split(",")
    .map((part) => {
      const [type, ...parameters] = part.split(";").map((s) => s.trim().toLowerCase());
      const quality = Number(parameters.find((p) => p.startsWith("q="))?.slice(2) ?? 1);
      return {
        type,
        stripNulls: parameters.includes("nulls=stripped"),
        quality: Number.isFinite(quality) ? quality : 1,
      };
    })
    .sort((a, b) => b.quality - a.quality);
  for (const o of offered) {
    const media = MEDIA_TYPES[o.type];
    if (media) return { media, stripNulls: o.stripNulls && media !== "csv" };
  }
  throw new PgrstError(
    406,
    "PGRST107",
    `None of these media types are available: ${offered.map((o) => o.type).join(", ")}`,
    null,
    null,
  );
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** The arguments a POST carries, by its Content-Type, as PostgREST reads them. */
async function postArguments(
  req: IncomingMessage,
): Promise<{ args: CallArguments; keys: string[]; contentType: string }> {
  const contentType = (headerOf(req, "content-type") ?? "application/json").split(";")[0].trim().toLowerCase();
  const raw = await readBody(req);
  if (contentType === "text/plain" || contentType === "text/xml") {
    return { args: { single: raw.toString("utf8") }, keys: [], contentType };
  }
  if (contentType === "application/octet-stream") return { args: { single: raw }, keys: [], contentType };
  if (contentType === "application/x-www-form-urlencoded") {
    const text = new Map<string, string[]>();
    for (const [k, v] of new URLSearchParams(raw.toString("utf8"))) text.set(k, [...(text.get(k) ?? []), v]);
    return { args: { text }, keys: [...text.keys()], contentType };
  }
  if (contentType === "text/csv") throw notImplemented("A CSV body (a bulk call) on a function");
  if (contentType !== "application/json") {
    throw new PgrstError(400, "PGRST102", `Content-Type not acceptable: ${contentType}`, null, null);
  }
  const body = parseBody(req, raw);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new PgrstError(
      400,
      "PGRST102",
      "Empty or invalid json",
      Array.isArray(body) ? "A JSON array of calls (bulk RPC) is not supported by the embedded backend" : null,
      "Send the arguments as one JSON object.",
    );
  }
  const text = raw.toString("utf8").trim();
  return {
    args: { json: body as Record<string, unknown>, single: text === "" ? "{}" : text },
    keys: Object.keys(body),
    contentType: "application/json",
  };
}

/** The rows wanted: the query's offset/limit within the Range header's, as PostgREST intersects them. */
function rowsWanted(query: ReadQuery, rangeHeader: string | undefined): { offset: number; limit?: number } {
  const header = parseRangeHeader(rangeHeader);
  const lower = Math.max(query.offset, header?.from ?? 0);
  const uppers = [query.limit === undefined ? undefined : query.offset + query.limit - 1, header?.to].filter(
    (u): u is number => u !== undefined,
  );
  if (!uppers.length) return { offset: lower };
  return { offset: lower, limit: Math.max(0, Math.min(...uppers) - lower + 1) };
}

export async function callRpc(db: PGlite, r: RpcRequest): Promise<Reply> {
  const isPost = r.method === "POST";
  if (!isPost && r.method !== "GET" && r.method !== "HEAD") {
    throw new PgrstError(405, "PGRST101", `Cannot use the ${r.method} method on RPC`, null, null);
  }
  const anonymous = r.caller.role === "anon";
  // The gateway takes the key from the query string too and does not pass it on (this backend reads it from the
  // header only), so it is neither a function argument nor a filter.
  const params = new URLSearchParams(r.url.searchParams);
  params.delete("apikey");
  const query = parseReadQuery(params, !isPost);
  const prefs = parsePreferences(headerOf(r.req, "prefer"));
  if (prefs.handling === "strict" && prefs.invalid.length) {
    throw new PgrstError(
      400,
      "PGRST122",
      "Invalid preferences given with handling=strict",
      `Invalid preferences: ${prefs.invalid.join(", ")}`,
      null,
    );
  }
  const { media, stripNulls } = negotiate(headerOf(r.req, "accept"));
  const wanted = rowsWanted(query, headerOf(r.req, "range"));
  let args: CallArguments;
  let keys: string[];
  let contentType = "application/json";
  if (isPost) {
    ({ args, keys, contentType } = await postArguments(r.req));
  } else {
    const text = new Map<string, string[]>();
    for (const [k, v] of query.args) text.set(k, [...(text.get(k) ?? []), v]);
    args = { text };
    keys = [...text.keys()];
  }
  try {
    return await db.transaction(async (tx) => {
      const proc = await findProc(tx, await procsFor(db, tx, r.fn), r.fn, keys, contentType, isPost);
      if (prefs.maxAffected !== undefined && prefs.handling === "strict" && !proc.retset) {
        throw new PgrstError(
          400,
          "PGRST128",
          "Function must return SETOF or TABLE when max-affected preference is used with handling=strict",
          null,
          null,
        );
      }
      // As PostgREST: GET, HEAD and a POST to a stable or immutable function run read-only, so a function that
      // writes answers 25006 → 405.
      await actAs(tx, r.caller, r.method === "HEAD" ? "GET" : r.method, !isPost || proc.volatility !== "v");
      // Prefer: timezone=… sets the transaction's time zone when Postgres knows it; an unknown one is not applied.
      const applied = [...prefs.applied];
      if (prefs.timezone) {
        const { rows } = await tx.query<{ known: boolean }>(
          `select set_config('timezone', name, true) is not null as known from pg_timezone_names where name = $1`,
          [prefs.timezone],
        );
        if (!rows.length) applied.splice(applied.indexOf(`timezone=${prefs.timezone}`), 1);
      }
      const plan: CallPlan = {
        proc,
        computed: await computedFields(tx, proc, query),
        args,
        query,
        media,
        stripNulls,
        count: prefs.count === "exact" || prefs.count === "estimated",
        ...wanted,
      };
      const appliedHeader: Record<string, string> = applied.length ? { "Preference-Applied": applied.join(", ") } : {};
      let reply: Reply;
      if (proc.void) {
        const { sql, params } = voidStatement(plan);
        await tx.query(sql, params);
        reply = { status: 204, headers: appliedHeader };
      } else {
        const { sql, params } = callStatement(plan);
        const { rows } = await tx.query<{ total: number | null; page_total: number; body: string }>(sql, params);
        const { total, page_total: pageTotal, body } = rows[0];
        if (prefs.maxAffected !== undefined && prefs.handling === "strict" && pageTotal > prefs.maxAffected) {
          throw new PgrstError(
            400,
            "PGRST124",
            "Query result exceeds max-affected preference constraint",
            `The query affects ${pageTotal} rows`,
            null,
          );
        }
        if (media === "object" && pageTotal !== 1) {
          throw new PgrstError(
            406,
            "PGRST116",
            "Cannot coerce the result to a single JSON object",
            `The result contains ${pageTotal} rows`,
            null,
          );
        }
        const lower = plan.offset;
        const upper = lower + Number(pageTotal) - 1;
        const totalKnown = total === null ? null : Number(total);
        const contentRange = `${totalKnown !== 0 && lower <= upper ? `${lower}-${upper}` : "*"}/${totalKnown ?? "*"}`;
        if (totalKnown !== null && lower > totalKnown) {
          throw new PgrstError(
            416,
            "PGRST103",
            "Requested range not satisfiable",
            `An offset of ${lower} was requested, but there are only ${totalKnown} rows.`,
            null,
            { "Content-Range": contentRange },
          );
        }
        const status = totalKnown !== null && upper - lower + 1 < totalKnown ? 206 : 200;
        reply = {
          status,
          body: body,
          raw: true,
          headers: { "Content-Type": CONTENT_TYPES[media], "Content-Range": contentRange, ...appliedHeader },
        };
      }
      if (prefs.tx === "rollback") throw new RolledBack(reply);
      return reply;
    });
  } catch (e) {
    if (e instanceof RolledBack) return e.reply;
    if (e instanceof PgrstError) throw e;
    const pg = e as PgError;
    if (!pg.code) throw e;
    const status = statusForSqlState(pg.code, anonymous);
    throw new PgrstError(
      status,
      pg.code,
      pg.message ?? "Database error",
      pg.detail ?? null,
      pg.hint ?? null,
      status === 401 ? { "WWW-Authenticate": "Bearer" } : {},
    );
  }
}
