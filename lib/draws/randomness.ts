// External public randomness for draws, fixed when a competition goes live and
// mixed into the derivation next to the database's secret seed. Defence in depth:
// a draw is predictable only if both the seed and this value were.
//
//   DRAW_RANDOMNESS=none (default)  nothing external; the committed CSPRNG seed alone
//   DRAW_RANDOMNESS=drand           the latest round of a drand chain (DRAND_URL, DRAND_CHAIN)
//   DRAW_RANDOMNESS=random.org      a RANDOM.ORG signed blob (RANDOM_ORG_API_KEY)
import { bytesToHex, hexToBytes, sha256 } from "./verify";

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

// drand's quicknet chain (3-second rounds, unchained signatures).
export const DRAND_QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";

type Env = Record<string, string | undefined>;

export function randomnessAdapter(env: Env = process.env, fetchImpl: typeof fetch = fetch): RandomnessAdapter {
  const mode = (env.DRAW_RANDOMNESS ?? "none").toLowerCase();
  if (mode === "none" || mode === "") return { name: "none", fetch: async () => null };
  if (mode === "drand") return drandAdapter(env, fetchImpl);
  if (mode === "random.org") return randomOrgAdapter(env, fetchImpl);
  throw new Error(`DRAW_RANDOMNESS must be none, drand or random.org (got "${mode}")`);
}

function drandAdapter(env: Env, fetchImpl: typeof fetch): RandomnessAdapter {
  const base = (env.DRAND_URL ?? "https://api.drand.sh").replace(/\/$/, "");
  const chain = env.DRAND_CHAIN ?? DRAND_QUICKNET;
  return {
    name: "drand",
    async fetch() {
      const res = await fetchImpl(`${base}/${chain}/public/latest`, { cache: "no-store" });
      if (!res.ok) throw new Error(`drand answered ${res.status}`);
      const body = (await res.json()) as { round: number; randomness: string; signature: string };
      // drand defines a round's randomness as SHA-256 of its signature; check it
      // here (the BLS signature itself is checked against the chain's public key
      // by anyone with a drand client).
      const expected = bytesToHex(await sha256(hexToBytes(body.signature)));
      if (expected !== body.randomness.toLowerCase()) throw new Error("drand randomness does not match its signature");
      return {
        source: "drand",
        value_hex: expected,
        round: body.round,
        signature: body.signature.toLowerCase(),
        chain_hash: chain,
        url: `${base}/${chain}/public/${body.round}`,
        fetched_at: new Date().toISOString(),
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
