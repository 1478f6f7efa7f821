// External public randomness for draws, fixed when a competition goes live and
// mixed into the derivation next to the database's secret seed. Defence in depth:
// a draw is predictable only if both the seed and this value were.
//
//   DRAW_RANDOMNESS=none (default)  nothing external; the committed CSPRNG seed alone
//   DRAW_RANDOMNESS=drand           the latest round of drand's quicknet, its BLS signature checked
//                                   (DRAND_URL; DRAND_CHAIN + DRAND_PUBLIC_KEY for another chain of
//                                   the same scheme, e.g. a test network)
//   DRAW_RANDOMNESS=random.org      a RANDOM.ORG signed blob (RANDOM_ORG_API_KEY)
import { bls12_381 } from "@noble/curves/bls12-381.js";
import { sha256 as sha256Sync } from "@noble/hashes/sha2.js";
import { env as serverEnv } from "@/lib/env";
import { bytesToHex, hexToBytes, sha256 } from "@/lib/crypto/bytes";

export type ExternalRandomness =
  | {
      source: "drand";
      value_hex: string;
      round: number;
      signature: string;
      chain_hash: string;
      url: string;
      fetched_at: string;
    }
  | {
      source: "random.org";
      value_hex: string;
      serial_number: number;
      random: unknown;
      signature: string;
      verify_url: string;
      fetched_at: string;
    };

export interface RandomnessAdapter {
  readonly name: "none" | "drand" | "random.org";
  fetch(): Promise<ExternalRandomness | null>;
}

// drand's quicknet chain (https://api.drand.sh/<hash>/info): 3-second rounds, scheme
// bls-unchained-g1-rfc9380, i.e. round r is signed as SHA-256(r as 8 big-endian bytes) on G1.
export const DRAND_QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";
export const DRAND_QUICKNET_PUBLIC_KEY =
  "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a";
const QUICKNET_GENESIS_SECONDS = 1692803367;
const QUICKNET_PERIOD_SECONDS = 3;
const QUICKNET_DST = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
/** A beacon older than this is refused: a stale round was public before the competition went live. */
const MAX_BEACON_AGE_SECONDS = 60;

/** True when `signatureHex` is the chain's BLS signature of `round` (scheme bls-unchained-g1-rfc9380). */
export function verifyDrandSignature(
  round: number,
  signatureHex: string,
  publicKeyHex = DRAND_QUICKNET_PUBLIC_KEY,
): boolean {
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(round));
  const bls = bls12_381.shortSignatures;
  try {
    return bls.verify(hexToBytes(signatureHex), bls.hash(sha256Sync(message), QUICKNET_DST), hexToBytes(publicKeyHex));
  } catch {
    return false; // not a point on the curve, wrong length, not hex
  }
}

/** The quicknet round current at `nowMs`. */
export function quicknetRoundAt(nowMs: number): number {
  return Math.floor((Math.floor(nowMs / 1000) - QUICKNET_GENESIS_SECONDS) / QUICKNET_PERIOD_SECONDS) + 1;
}

/** The variables it reads: the checked ones from lib/env.ts, or a test's own. */
type Env = Partial<
  Record<"DRAW_RANDOMNESS" | "DRAND_URL" | "DRAND_CHAIN" | "DRAND_PUBLIC_KEY" | "RANDOM_ORG_API_KEY", string>
>;

export function randomnessAdapter(
  env: Env = serverEnv(),
  fetchImpl: typeof fetch = fetch,
  now: () => number = Date.now,
): RandomnessAdapter {
  const mode = (env.DRAW_RANDOMNESS ?? "none").toLowerCase();
  if (mode === "none" || mode === "") return { name: "none", fetch: async () => null };
  if (mode === "drand") return drandAdapter(env, fetchImpl, now);
  if (mode === "random.org") return randomOrgAdapter(env, fetchImpl);
  throw new Error(`DRAW_RANDOMNESS must be none, drand or random.org (got "${mode}")`);
}

function drandAdapter(env: Env, fetchImpl: typeof fetch, now: () => number): RandomnessAdapter {
  const base = (env.DRAND_URL ?? "https://api.drand.sh").replace(/\/$/, "");
  const chain = env.DRAND_CHAIN ?? DRAND_QUICKNET;
  const quicknet = chain === DRAND_QUICKNET;
  const publicKey = env.DRAND_PUBLIC_KEY ?? (quicknet ? DRAND_QUICKNET_PUBLIC_KEY : undefined);
  if (!publicKey) throw new Error("DRAND_PUBLIC_KEY must be set when DRAND_CHAIN is not quicknet");
  return {
    name: "drand",
    async fetch() {
      const res = await fetchImpl(`${base}/${chain}/public/latest`, { cache: "no-store" });
      if (!res.ok) throw new Error(`drand answered ${res.status}`);
      const body = (await res.json()) as { round: number; randomness: string; signature: string };
      if (!Number.isSafeInteger(body.round) || body.round < 1) throw new Error("drand answered without a round");
      // The signature proves the chain's nodes signed this round; drand defines the round's
      // randomness as SHA-256 of that signature.
      if (!verifyDrandSignature(body.round, body.signature, publicKey))
        throw new Error("drand signature does not verify");
      const expected = bytesToHex(await sha256(hexToBytes(body.signature)));
      if (expected !== body.randomness.toLowerCase()) throw new Error("drand randomness does not match its signature");
      if (quicknet && body.round < quicknetRoundAt(now()) - MAX_BEACON_AGE_SECONDS / QUICKNET_PERIOD_SECONDS) {
        throw new Error(`drand round ${body.round} is stale`);
      }
      return {
        source: "drand",
        value_hex: expected,
        round: body.round,
        signature: body.signature.toLowerCase(),
        chain_hash: chain,
        url: `${base}/${chain}/public/${body.round}`,
        fetched_at: new Date(now()).toISOString(),
      };
    },
  };
}

function randomOrgAdapter(env: Env, fetchImpl: typeof fetch): RandomnessAdapter {
  const apiKey = env.RANDOM_ORG_API_KEY;
  if (!apiKey) throw new Error("RANDOM_ORG_API_KEY must be set when DRAW_RANDOMNESS=random.org");
  return {
    name: "random.org",
    async fetch() {
      const res = await fetchImpl("https://api.random.org/json-rpc/4/invoke", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          method: "generateSignedBlobs",
          params: { apiKey, n: 1, size: 256, format: "hex" },
          id: Date.now(),
        }),
        cache: "no-store",
      });
      if (!res.ok) throw new Error(`RANDOM.ORG answered ${res.status}`);
      const body = (await res.json()) as {
        error?: { message: string };
        result?: { random: { data: string[]; serialNumber: number }; signature: string };
      };
      if (body.error || !body.result) throw new Error(`RANDOM.ORG: ${body.error?.message ?? "no result"}`);
      const value = body.result.random.data[0]?.toLowerCase() ?? "";
      if (!/^[0-9a-f]{64}$/.test(value)) throw new Error("RANDOM.ORG returned an unexpected blob");
      return {
        source: "random.org",
        value_hex: value,
        serial_number: body.result.random.serialNumber,
        random: body.result.random,
        signature: body.result.signature,
        verify_url: "https://api.random.org/signatures/form",
        fetched_at: new Date().toISOString(),
      };
    },
  };
}
