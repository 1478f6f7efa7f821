import "server-only";
import { createClient } from "@/lib/supabase/server";
import { callRpcWith, type RpcArgs, type RpcName, type RpcOutput, type RpcReader } from "./rpc";

/** callRpcWith as the signed-in visitor (or anon): the request's cookie session, RLS and grants apply. */
export async function callRpc<N extends RpcName, R extends RpcReader<N>>(
  name: N,
  args: RpcArgs<N>,
  reader: R,
): Promise<RpcOutput<N, R>> {
  return callRpcWith(await createClient(), name, args, reader);
}
