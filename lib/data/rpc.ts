// The one way the app calls a database function: the name and arguments are
// typed from the generated schema (lib/supabase/database.types.ts), the result
// is either the type SQL declares for it (a composite or table type: `declared`)
// or, for a jsonb result, parsed with zod, and a failure is thrown as a DbError
// with a stable code.
//
// No "server-only" marker here: this module holds no secret and takes the
// client it is given (the mail adapter and its db test pass their own).
// lib/data/server-rpc.ts is the request-scoped, cookie-session variant.
import { z } from "zod";
import type { Database } from "@/lib/supabase/database.types";
import { DbError, type PostgrestErrorLike } from "./errors";

type Functions = Database["public"]["Functions"];

/** Every function an API role may execute. */
export type RpcName = keyof Functions & string;

/**
 * The arguments of `name` (an empty object for a function that takes none). Each may also be
 * null: a SQL argument always can be, the generated types (like supabase's) just do not say so,
 * and our functions check for null themselves (e.g. a postal entry with no account).
 */
export type RpcArgs<N extends RpcName> = Functions[N] extends { Args: infer A }
  ? [A] extends [never]
    ? Record<string, never>
    : { [K in keyof A]: A[K] | null }
  : never;

/** What the helper needs of a supabase-js client (the cookie client, the secret-key client, or a test's). */
export interface RpcClient {
  rpc(fn: string, args?: Record<string, unknown>): PromiseLike<{ data: unknown; error: PostgrestErrorLike | null }>;
}

/** What `name` returns, as the generated types say: a declared composite's fields are each `| null`. */
export type RpcResult<N extends RpcName> = Functions[N]["Returns"];
type Row<T> = T extends readonly (infer E)[] ? E : T;

/**
 * Reads a result whose shape SQL declares: nothing to parse, but Postgres cannot mark a composite's field
 * not null, so `filled` names the fields the SQL always fills; each is checked and typed without `| null`.
 */
export interface Declared<K extends string> {
  readonly filled: readonly K[];
}
export const declared = <K extends string>(...filled: K[]): Declared<K> => ({ filled });

/** How a result is read: a zod schema for a jsonb result, `declared(...)` for a declared type. */
export type RpcReader<N extends RpcName> = z.ZodType | Declared<keyof Row<RpcResult<N>> & string>;

type Filled<T, K extends PropertyKey> = T extends readonly (infer E)[]
  ? Filled<E, K>[]
  : { [P in keyof T]: P extends K ? NonNullable<T[P]> : T[P] };

/** The result of `name` read with `reader`. */
export type RpcOutput<N extends RpcName, R> = R extends z.ZodType
  ? z.output<R>
  : R extends Declared<infer K>
    ? Filled<RpcResult<N>, K>
    : never;

function checkFilled(name: string, data: unknown, filled: readonly string[]): void {
  for (const row of Array.isArray(data) ? data : [data]) {
    const missing = filled.filter((k) => (row as Record<string, unknown> | null)?.[k] == null);
    if (missing.length) throw new Error(`${name} answered without ${missing.join(", ")}`);
  }
}

/** Calls `name` through `client`, reads its result with `reader`, throws DbError when the database refuses. */
export async function callRpcWith<N extends RpcName, R extends RpcReader<N>>(
  client: RpcClient,
  name: N,
  args: RpcArgs<N>,
  reader: R,
): Promise<RpcOutput<N, R>> {
  const { data, error } = await client.rpc(name, args as Record<string, unknown>);
  if (error) throw DbError.fromPostgrest(error, name);
  if (reader instanceof z.ZodType) return reader.parse(data) as RpcOutput<N, R>;
  checkFilled(name, data, reader.filled);
  return data as RpcOutput<N, R>;
}

/** The result schema for a function that returns void: there is nothing to read. */
export const noResult = z.unknown();
