// The one way the app calls a database function: the name and arguments are
// typed from the generated schema (lib/supabase/database.types.ts), the result
// is parsed with zod, and a failure is thrown as a DbError with a stable code.
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

/** Calls `name` through `client`, parses its result with `schema`, throws DbError when the database refuses. */
export async function callRpcWith<N extends RpcName, S extends z.ZodType>(
  client: RpcClient,
  name: N,
  args: RpcArgs<N>,
  schema: S,
): Promise<z.output<S>> {
  const { data, error } = await client.rpc(name, args as Record<string, unknown>);
  if (error) throw DbError.fromPostgrest(error, name);
  return schema.parse(data);
}

/** The result schema for a function that returns void: there is nothing to read. */
export const noResult = z.unknown();
