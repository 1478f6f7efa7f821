import "server-only";
import { createPublicClient } from "@/lib/supabase/public";
import { callRpcWith, type RpcArgs, type RpcName, type RpcOutput, type RpcReader } from "./rpc";

/**
 * callRpcWith as anon, for the cached public pages (no cookies, so the page stays static).
 *
 * `next build` prerenders the static ones (/, /competitions, /winners) with no database to read
 * (the backend starts with the server), so during the build this answers `atBuild` instead. That
 * first version is never shown: next.config's expireTime is shorter than any build-to-first-visit,
 * so the first request renders the page afresh. Pages per competition or draw are only rendered on
 * a visit, so they pass no `atBuild`.
 */
export async function callPublicRpc<N extends RpcName, R extends RpcReader<N>>(
  name: N,
  args: RpcArgs<N>,
  reader: R,
  atBuild?: RpcOutput<N, R>,
): Promise<RpcOutput<N, R>> {
  if (atBuild !== undefined && process.env.NEXT_PHASE === "phase-production-build") return atBuild;
  return callRpcWith(createPublicClient(), name, args, reader);
}
