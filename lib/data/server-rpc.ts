import "server-only";
import type { z } from "zod";
import { createClient } from "@/lib/supabase/server";
import { callRpcWith, type RpcArgs, type RpcName } from "./rpc";

/** callRpcWith as the signed-in visitor (or anon): the request's cookie session, RLS and grants apply. */
export async function callRpc<N extends RpcName, S extends z.ZodType>(
  name: N,
  args: RpcArgs<N>,
  schema: S,
): Promise<z.output<S>> {
  return callRpcWith(await createClient(), name, args, schema);
}
