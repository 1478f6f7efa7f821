// PostgREST-compatible RPC under /rest/v1/rpc/{fn}: the only way the app
// reaches the database. Each call is one transaction that takes the caller's
// role and JWT claims (so auth.uid() and the grants work as on Supabase), calls
// public.<fn> with named arguments, and answers with PostgREST's JSON shapes,
// error body and status codes. Each database keeps what pg_proc said about a
// name and checks it on every call against the name's function oids and default
// counts (a drop, a new overload or a new default changes them), so a new
// migration or a test's function is callable at once.
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Caller } from "./callers";
import type { Reply } from "./http";

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

interface ProcArg {
  name: string | null;
  type: string;
  mode: string;
}

interface Proc {
  oid: number;
  name: string;
  retset: boolean;
  volatility: string;
  nargs: number;
  ndefaults: number;
  rettype: string;
  rettyptype: string;
  args: ProcArg[];
}

type Shape = "void" | "scalar" | "object" | "set";

export interface RpcRequest {
  method: "GET" | "HEAD" | "POST";
  fn: string;
  args: Record<string, unknown>;
  caller: Caller;
  /** Accept asked for one object (supabase-js `.single()`). */
  single: boolean;
  /** Prefer: count=exact|planned|estimated — answer with Content-Range total. */
  count: boolean;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

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
 * About a tenth of the cost of loadProcs, which was the largest part of an RPC (DECISIONS "Page speed").
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

async function loadProcs(db: Transaction, name: string): Promise<Proc[]> {
  const { rows } = await db.query<Proc>(
    `select p.oid::int as oid, p.proname as name, p.proretset as retset, p.provolatile as volatility,
            p.pronargs as nargs, p.pronargdefaults as ndefaults,
            format_type(p.prorettype, null) as rettype, t.typtype as rettyptype,
            coalesce((
              select json_agg(json_build_object('name', nullif(a.name, ''), 'type', format_type(a.type, null),
                                                'mode', coalesce(a.mode, 'i')) order by a.ord)
                from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargmodes::text[], p.proargnames)
                     with ordinality as a(type, mode, name, ord)
               where a.type is not null
            ), '[]'::json) as args
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type t on t.oid = p.prorettype
      where n.nspname = 'public' and p.proname = $1 and p.prokind = 'f'`,
    [name],
  );
  return rows;
}

function inputArgs(proc: Proc): ProcArg[] {
  return proc.args.filter((a) => a.mode === "i" || a.mode === "b" || a.mode === "v");
}

/** The overload whose argument names fit the keys given, as PostgREST chooses it. */
function pickOverload(procs: Proc[], fn: string, keys: string[]): Proc {
  const fitting = procs.filter((p) => {
    const inputs = inputArgs(p);
    if (inputs.some((a) => a.name === null)) return false;
    const names = new Set(inputs.map((a) => a.name!));
    if (!keys.every((k) => names.has(k))) return false;
    const required = inputs.slice(0, inputs.length - p.ndefaults);
    return required.every((a) => keys.includes(a.name!));
  });
  if (fitting.length === 1) return fitting[0];
  if (fitting.length > 1) {
    throw new PgrstError(
      300,
      "PGRST203",
      `Could not choose the best candidate function between: ${fitting
        .map(
          (p) =>
            `public.${fn}(${inputArgs(p)
              .map((a) => `${a.name} => ${a.type}`)
              .join(", ")})`,
        )
        .join(", ")}`,
      null,
      "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    );
  }
  const sorted = [...keys].sort();
  throw new PgrstError(
    404,
    "PGRST202",
    `Could not find the function public.${fn}${sorted.length ? `(${sorted.join(", ")})` : " without parameters"} in the schema cache`,
    `Searched for the function public.${fn} ${
      sorted.length ? `with parameter${sorted.length > 1 ? "s" : ""} ${sorted.join(", ")}` : "without parameters"
    } or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    procs.length
      ? `Perhaps you meant to call the function public.${fn}(${inputArgs(procs[0])
          .map((a) => a.name)
          .join(", ")})`
      : null,
  );
}

function shapeOf(proc: Proc): Shape {
  if (proc.rettype === "void") return "void";
  if (proc.retset) return "set";
  const outs = proc.args.filter((a) => a.mode === "o" || a.mode === "b" || a.mode === "t");
  if (proc.rettyptype === "c" || outs.length > 1) return "object";
  return "scalar";
}

/**
 * The SQL for one call. Arguments travel as one JSON document through
 * json_to_record, as PostgREST sends them, so Postgres does every conversion
 * (numeric stays exact, arrays and json/jsonb arrive as such).
 */
function callSql(proc: Proc, keys: string[], shape: Shape, single: boolean): string {
  const inputs = inputArgs(proc).filter((a) => keys.includes(a.name!));
  const callArgs = inputs.map((a) => `${quoteIdent(a.name!)} => pgrst_args.${quoteIdent(a.name!)}`).join(", ");
  const from = inputs.length
    ? `json_to_record($1::json) as pgrst_args(${inputs.map((a) => `${quoteIdent(a.name!)} ${a.type}`).join(", ")}), `
    : "";
  const call = `public.${quoteIdent(proc.name)}(${callArgs})`;
  switch (shape) {
    case "void":
      return inputs.length ? `select ${call} from ${from.slice(0, -2)}` : `select ${call}`;
    case "set":
      return `select ${
        single ? "(json_agg(pgrst_t) -> 0)::text" : "coalesce(json_agg(pgrst_t), '[]'::json)::text"
      } as body, count(*)::int as n from ${from}lateral ${call} pgrst_t`;
    default:
      return `select to_json(pgrst_t)::text as body, 1 as n from ${from}lateral ${call} pgrst_t`;
  }
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
export async function actAs(tx: Transaction, caller: Caller, method: string): Promise<void> {
  // One statement, as PostgREST does it: set_config('role', …, true) is `set local role`, and each statement is
  // a round through PGlite's protocol on the backend's one thread (every RPC pays it).
  await tx.query(
    "select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.method', $3, true)",
    [caller.role, JSON.stringify(caller.claims), method],
  );
}

export async function callRpc(db: PGlite, r: RpcRequest): Promise<Reply> {
  const readOnly = r.method !== "POST";
  const anonymous = r.caller.role === "anon";
  const keys = Object.keys(r.args);
  try {
    return await db.transaction(async (tx) => {
      // GET runs read-only, so a volatile function that writes fails with 25006 → 405, as in PostgREST.
      if (readOnly) await tx.query("set transaction read only");
      const proc = pickOverload(await procsFor(db, tx, r.fn), r.fn, keys);
      const shape = shapeOf(proc);
      await actAs(tx, r.caller, r.method);
      const params = keys.length && inputArgs(proc).length ? [JSON.stringify(r.args)] : [];
      const { rows } = await tx.query<{ body: string | null; n: number }>(callSql(proc, keys, shape, r.single), params);
      if (shape === "void") return { status: 204 };
      const n = rows[0]?.n ?? 0;
      if (r.single && n !== 1) {
        throw new PgrstError(
          406,
          "PGRST116",
          "Cannot coerce the result to a single JSON object",
          `The result contains ${n} rows`,
        );
      }
      const headers: Record<string, string> = {
        "Content-Type": r.single
          ? "application/vnd.pgrst.object+json; charset=utf-8"
          : "application/json; charset=utf-8",
      };
      if (shape === "set") headers["Content-Range"] = n ? `0-${n - 1}/${r.count ? n : "*"}` : `*/${r.count ? 0 : "*"}`;
      return { status: 200, body: rows[0]?.body ?? "null", raw: true, headers };
    });
  } catch (e) {
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
