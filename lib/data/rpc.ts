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
/** The object a value holds: an array's element, without the null a composite field may be. */
type Row<T> = NonNullable<T> extends readonly (infer E)[] ? E : NonNullable<T>;

/**
 * Reads a result whose shape SQL declares: nothing to parse, but Postgres cannot mark a composite's field
 * not null, so `filled` names the fields the SQL always fills; each is checked and typed without `| null`.
 * A field that is itself a declared type, or an array of one, is read by its own reader in `nested`
 * (`declared("wheel_id", "segments").with({ segments: declared("position", "label") })`).
 */
export interface Declared<K extends string, M = NoNested> {
  readonly filled: readonly K[];
  readonly nested: M;
}
/** No nested readers: every field is read as the generated types say. */
type NoNested = Record<never, never>;
/** A reader for the object `T` holds, its nested readers keyed by the fields they read. */
export type ReaderFor<T> = Declared<keyof Row<T> & string, { readonly [P in keyof Row<T>]?: ReaderFor<Row<T>[P]> }>;

interface DeclaredBuilder<K extends string, M> extends Declared<K, M> {
  with<W>(nested: W): DeclaredBuilder<K, M & W>;
}
const build = <K extends string, M>(filled: readonly K[], nested: M): DeclaredBuilder<K, M> => ({
  filled,
  nested,
  with: (more) => build(filled, { ...nested, ...more }),
});
export const declared = <K extends string>(...filled: K[]): DeclaredBuilder<K, NoNested> => build(filled, {});

/** How a result is read: a zod schema for a jsonb result, `declared(...)` for a declared type. */
export type RpcReader<N extends RpcName> = z.ZodType | ReaderFor<RpcResult<N>>;

/** `T` read with `filled` and `nested`: the filled fields without `| null`, nested ones read by their reader. */
type Filled<T, K extends PropertyKey, M> = T extends readonly (infer E)[]
  ? Filled<E, K, M>[]
  : { [P in keyof T]: P extends K ? NonNullable<Field<T[P], M, P>> : Field<T[P], M, P> };
type Field<V, M, P> = P extends keyof M ? (M[P] extends Declared<infer K, infer M2> ? Nest<V, K, M2> : V) : V;
type Nest<V, K extends PropertyKey, M> = V extends null ? null : Filled<V, K, M>;

/** The result of `name` read with `reader`. */
export type RpcOutput<N extends RpcName, R> = R extends z.ZodType
  ? z.output<R>
  : R extends Declared<infer K, infer M>
    ? Filled<RpcResult<N>, K, M>
    : never;

function checkFilled(name: string, data: unknown, reader: Declared<string, Record<string, unknown>>, at = ""): void {
  for (const row of Array.isArray(data) ? data : [data]) {
    const fields = row as Record<string, unknown> | null;
    const missing = reader.filled.filter((k) => fields?.[k] == null);
    if (missing.length) throw new Error(`${name} answered without ${missing.map((k) => at + k).join(", ")}`);
    for (const [field, inner] of Object.entries(reader.nested)) {
      const value = fields?.[field];
      if (value != null) checkFilled(name, value, inner as Declared<string, Record<string, unknown>>, `${at}${field}.`);
    }
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
  checkFilled(name, data, reader as Declared<string, Record<string, unknown>>);
  return data as RpcOutput<N, R>;
}

/** The result schema for a function that returns void: there is nothing to read. */
export const noResult = z.unknown();
