// drand beacons are checked before a competition uses them: the chain's BLS signature, the
// randomness derived from it, and that the round is fresh. The beacon below is quicknet's real
// round 5,928,395 (https://api.drand.sh/52db9ba7…/public/5928395); the HTTP answer is played back
// because this machine cannot reach drand.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DRAND_QUICKNET, quicknetRoundAt, randomnessAdapter, verifyDrandSignature } from "@/lib/draws/randomness";

const ROUND = 5_928_395;
const SIGNATURE = "a5d07c0071b4e386b3ae09206522253c68fefe8490ad59ecc44a7dd0d0745be91da5779e2247a82403fbc0cb9a34cb61";
const RANDOMNESS = createHash("sha256").update(Buffer.from(SIGNATURE, "hex")).digest("hex");
// The moment round 5,928,395 was current: genesis + (round - 1) × 3 s.
const ROUND_TIME_MS = (1692803367 + (ROUND - 1) * 3) * 1000;

/** Flips one bit of a hex string at byte `at`. */
const flip = (hex: string, at = 10) =>
  hex.slice(0, at * 2) +
  (parseInt(hex.slice(at * 2, at * 2 + 2), 16) ^ 1).toString(16).padStart(2, "0") +
  hex.slice(at * 2 + 2);

function drandAnswering(body: unknown, seen: string[] = []): typeof fetch {
  return (async (url: string | URL | Request) => {
    seen.push(String(url));
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
}

describe("verifyDrandSignature", () => {
  it("accepts quicknet's real signature of its round", () => {
    expect(verifyDrandSignature(ROUND, SIGNATURE)).toBe(true);
  });

  it("refuses the signature for another round, an altered signature, another key and garbage", () => {
    expect(verifyDrandSignature(ROUND + 1, SIGNATURE)).toBe(false);
    expect(verifyDrandSignature(ROUND, flip(SIGNATURE))).toBe(false);
    expect(verifyDrandSignature(ROUND, SIGNATURE, flip(SIGNATURE.repeat(2), 40))).toBe(false);
    expect(verifyDrandSignature(ROUND, "zz")).toBe(false);
    expect(verifyDrandSignature(ROUND, "")).toBe(false);
  });
});

describe("the drand adapter", () => {
  const env = { DRAW_RANDOMNESS: "drand" };
  const at = (ms: number) => () => ms;

  it("takes a fresh, correctly signed round and records where anyone can check it", async () => {
    const seen: string[] = [];
    const adapter = randomnessAdapter(
      env,
      drandAnswering({ round: ROUND, randomness: RANDOMNESS, signature: SIGNATURE }, seen),
      at(ROUND_TIME_MS + 5000),
    );
    expect(await adapter.fetch()).toEqual({
      source: "drand",
      value_hex: RANDOMNESS,
      round: ROUND,
      signature: SIGNATURE,
      chain_hash: DRAND_QUICKNET,
      url: `https://api.drand.sh/${DRAND_QUICKNET}/public/${ROUND}`,
      fetched_at: new Date(ROUND_TIME_MS + 5000).toISOString(),
    });
    expect(seen).toEqual([`https://api.drand.sh/${DRAND_QUICKNET}/public/latest`]);
    expect(quicknetRoundAt(ROUND_TIME_MS)).toBe(ROUND);
  });

  it("refuses a forged signature even when the randomness matches it", async () => {
    const forged = flip(SIGNATURE);
    const randomness = createHash("sha256").update(Buffer.from(forged, "hex")).digest("hex");
    const adapter = randomnessAdapter(
      env,
      drandAnswering({ round: ROUND, randomness, signature: forged }),
      at(ROUND_TIME_MS),
    );
    await expect(adapter.fetch()).rejects.toThrow("drand signature does not verify");
  });

  it("refuses randomness that is not the hash of the signature", async () => {
    const adapter = randomnessAdapter(
      env,
      drandAnswering({ round: ROUND, randomness: flip(RANDOMNESS), signature: SIGNATURE }),
      at(ROUND_TIME_MS),
    );
    await expect(adapter.fetch()).rejects.toThrow("drand randomness does not match its signature");
  });

  it("refuses a round more than a minute old: it was public before the competition went live", async () => {
    const adapter = randomnessAdapter(
      env,
      drandAnswering({ round: ROUND, randomness: RANDOMNESS, signature: SIGNATURE }),
      at(ROUND_TIME_MS + 63_000),
    );
    await expect(adapter.fetch()).rejects.toThrow(`drand round ${ROUND} is stale`);
    // A minute old is still accepted.
    const minuteOld = randomnessAdapter(
      env,
      drandAnswering({ round: ROUND, randomness: RANDOMNESS, signature: SIGNATURE }),
      at(ROUND_TIME_MS + 60_000),
    );
    await expect(minuteOld.fetch()).resolves.toMatchObject({ round: ROUND });
  });

  it("needs the public key of any chain other than quicknet", () => {
    expect(() => randomnessAdapter({ ...env, DRAND_CHAIN: "f".repeat(64) })).toThrow("DRAND_PUBLIC_KEY must be set");
  });
});
