import { describe, expect, it } from "vitest";
import { hexToBytes, sha256 } from "@/lib/crypto/bytes";
import {
  acceptSpinValue,
  deriveSpin,
  segmentForValue,
  serverSeedHash,
  spinMessage,
  verifySpin,
  type DerivedSpin,
  type RecordedSpin,
  type SpinSeed,
  type SpinWheel,
} from "@/lib/spinner/derive";
import { hexOf, migratedDatabaseForFile } from "./support/sql-agreement";

// private.spin_derive (plpgsql, pgcrypto) and deriveSpin (WebCrypto) must agree on every input, or
// /labspinner/verify would contradict the spins the database recorded.
const database = migratedDatabaseForFile();

const TWO_POW_48 = 2 ** 48;
const INT4_MAX = 2 ** 31 - 1;
const CLIENT_SEED_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

/** Deterministic stand-in for random bytes: SHA-256 of a label. */
const bytesOf = (label: string) => sha256(label);

/** A 32-bit number from a label, for picking sizes and values. */
async function numberOf(label: string): Promise<number> {
  const h = await bytesOf(label);
  return ((h[0] << 24) | (h[1] << 16) | (h[2] << 8) | h[3]) >>> 0;
}

async function clientSeedOf(i: number): Promise<string> {
  const length = 1 + ((await numberOf(`client-length:${i}`)) % 64);
  const bytes = [...(await bytesOf(`client-a:${i}`)), ...(await bytesOf(`client-b:${i}`))];
  return bytes
    .slice(0, length)
    .map((b) => CLIENT_SEED_CHARS[b % CLIENT_SEED_CHARS.length])
    .join("");
}

const NONCES = [0, 1, 2, 9, 10, 99, 100, 12_345, 999_999, 1_000_000, INT4_MAX - 1, INT4_MAX];

async function nonceOf(i: number): Promise<number> {
  return i < NONCES.length * 4 ? NONCES[i % NONCES.length] : (await numberOf(`nonce:${i}`)) % (INT4_MAX + 1);
}

/** 2 to 16 segments; weights all 1, all 1,000,000, mixed small, or anywhere in 1..1,000,000. */
async function weightsOf(i: number): Promise<number[]> {
  const n = 2 + (i % 15);
  const style = Math.floor(i / 15) % 4;
  const weights: number[] = [];
  for (let k = 0; k < n; k++) {
    const r = await numberOf(`weight:${i}:${k}`);
    weights.push(style === 0 ? 1 : style === 1 ? 1_000_000 : style === 2 ? 1 + (r % 50) : 1 + (r % 1_000_000));
  }
  return weights;
}

async function sqlDerive(serverSeedHex: string, clientSeed: string, nonce: number, weights: number[]) {
  const { rows } = await database().query<{ attempt: number; value: string; segment_position: number }>(
    "select attempt, value::text as value, segment_position from private.spin_derive($1, $2, $3, $4::integer[])",
    [hexToBytes(serverSeedHex), clientSeed, nonce, weights],
  );
  const row = rows[0];
  return { attempt: row.attempt, value: Number(row.value), segmentPosition: row.segment_position } as DerivedSpin;
}

describe("labcash-spin-v1: the plpgsql derivation and lib/spinner/derive.ts agree", () => {
  it("on 400 generated inputs", async () => {
    const segmentCounts = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const serverSeedHex = await hexOf(`spin-seed:${i}`);
      const clientSeed = await clientSeedOf(i);
      const nonce = await nonceOf(i);
      const weights = await weightsOf(i);
      segmentCounts.add(weights.length);
      const sql = await sqlDerive(serverSeedHex, clientSeed, nonce, weights);
      const ts = await deriveSpin({ serverSeedHex, clientSeed, nonce, weights });
      expect(ts, `case ${i}: ${clientSeed}:${nonce} over ${weights.join(",")}`).toEqual(sql);
    }
    expect([...segmentCounts].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, k) => k + 2));
  }, 120_000);

  it("when rejection sampling needs more attempts (a total weight just over 2^47 rejects about half of them)", async () => {
    // spin_derive itself takes any integer weights; the wheel's 1..1,000,000 cap lives in the table. A total of
    // 2^47 + 1 accepts only x < 2^48 − (2^47 − 1), so the later attempts' messages are exercised too.
    const total = 2 ** 47 + 1;
    const full = Math.floor(total / INT4_MAX);
    const weights = [...Array<number>(full).fill(INT4_MAX), total - full * INT4_MAX];
    expect(weights.reduce((a, b) => a + b, 0)).toBe(total);
    const attempts = new Set<number>();
    for (let i = 0; i < 24; i++) {
      const serverSeedHex = await hexOf(`reject-seed:${i}`);
      const clientSeed = `reject-${i}`;
      const sql = await sqlDerive(serverSeedHex, clientSeed, i, weights);
      const ts = await deriveSpin({ serverSeedHex, clientSeed, nonce: i, weights });
      expect(ts, `case ${i}`).toEqual(sql);
      attempts.add(ts.attempt);
    }
    expect(Math.max(...attempts)).toBeGreaterThan(0);
  }, 120_000);

  it("agree with SQL on the SHA-256 shown before spinning", async () => {
    for (let i = 0; i < 10; i++) {
      const seed = await hexOf(`hash-seed:${i}`);
      const { rows } = await database().query<{ h: string }>(
        "select encode(extensions.digest($1::bytea, 'sha256'), 'hex') h",
        [hexToBytes(seed)],
      );
      expect(await serverSeedHash(seed)).toBe(rows[0].h);
    }
  });
});

describe("the pieces of the derivation", () => {
  it("builds the message without an attempt suffix on the first attempt", () => {
    expect(spinMessage("abc", 0, 0)).toBe("abc:0");
    expect(spinMessage("abc", 7, 0)).toBe("abc:7");
    expect(spinMessage("abc", 7, 1)).toBe("abc:7:1");
    expect(spinMessage("a-b_C", 2147483647, 12)).toBe("a-b_C:2147483647:12");
  });

  it("accepts x below the largest multiple of the total weight that fits in 2^48, and rejects the rest", () => {
    // 2^48 mod 3 = 1: only the very last x is rejected.
    expect(acceptSpinValue(0, 3)).toBe(0);
    expect(acceptSpinValue(TWO_POW_48 - 2, 3)).toBe(2);
    expect(acceptSpinValue(TWO_POW_48 - 1, 3)).toBeNull();
    // 2^48 mod 100 = 56: the top 56 values are rejected.
    expect(acceptSpinValue(TWO_POW_48 - 57, 100)).toBe(99);
    expect(acceptSpinValue(TWO_POW_48 - 56, 100)).toBeNull();
    // A power of two divides 2^48: nothing is rejected.
    expect(acceptSpinValue(TWO_POW_48 - 1, 1024)).toBe(1023);
    // 2^47 + 1: 2^48 mod W = 2^47 − 1, so x = 2^47 + 1 (= W) is the first rejected value.
    expect(acceptSpinValue(2 ** 47, 2 ** 47 + 1)).toBe(2 ** 47);
    expect(acceptSpinValue(2 ** 47 + 1, 2 ** 47 + 1)).toBeNull();
    expect(acceptSpinValue(TWO_POW_48 - 1, 2 ** 47 + 1)).toBeNull();
    // 16 segments of 1,000,000: 2^48 = 281,474,976,710,656, so 2^48 mod 16,000,000 = 710,656.
    expect(acceptSpinValue(TWO_POW_48 - 710_657, 16_000_000)).toBe(15_999_999);
    expect(acceptSpinValue(TWO_POW_48 - 710_656, 16_000_000)).toBeNull();
    expect(() => acceptSpinValue(5, 0)).toThrow();
  });

  it("picks the first segment whose cumulative weight exceeds the value", () => {
    const weights = [1, 30, 12];
    expect(segmentForValue(0, weights)).toBe(1);
    expect(segmentForValue(1, weights)).toBe(2);
    expect(segmentForValue(30, weights)).toBe(2);
    expect(segmentForValue(31, weights)).toBe(3);
    expect(segmentForValue(42, weights)).toBe(3);
    expect(() => segmentForValue(43, weights)).toThrow();
  });

  it("refuses a server seed that is not 32 bytes and a negative nonce", async () => {
    await expect(deriveSpin({ serverSeedHex: "ab", clientSeed: "x", nonce: 0, weights: [1, 1] })).rejects.toThrow();
    const seed = await hexOf("refuse");
    await expect(deriveSpin({ serverSeedHex: seed, clientSeed: "x", nonce: -1, weights: [1, 1] })).rejects.toThrow();
    await expect(deriveSpin({ serverSeedHex: seed, clientSeed: "x", nonce: 0, weights: [] })).rejects.toThrow();
  });
});

// The demo wheel of the migration (version 1).
const WHEEL: SpinWheel = {
  wheel_id: 1,
  segments: [
    { position: 1, label: "£10 credit", prize_credits: 10, weight: 1 },
    { position: 2, label: "No prize", prize_credits: 0, weight: 30 },
    { position: 3, label: "£1 credit", prize_credits: 1, weight: 12 },
    { position: 4, label: "No prize", prize_credits: 0, weight: 25 },
    { position: 5, label: "50p credit", prize_credits: 0.5, weight: 20 },
    { position: 6, label: "£2 credit", prize_credits: 2, weight: 7 },
    { position: 7, label: "£5 credit", prize_credits: 5, weight: 2 },
    { position: 8, label: "25p credit", prize_credits: 0.25, weight: 3 },
  ],
};

/** A seed pair and a spin on WHEEL as the database derives and records them. */
async function recordedBySql(label: string, nonce: number): Promise<{ seed: SpinSeed; spin: RecordedSpin }> {
  const serverSeed = await hexOf(`verify-seed:${label}`);
  const { rows } = await database().query<{ h: string }>(
    "select encode(extensions.digest($1::bytea, 'sha256'), 'hex') h",
    [hexToBytes(serverSeed)],
  );
  const clientSeed = `player-${label}`;
  const derived = await sqlDerive(
    serverSeed,
    clientSeed,
    nonce,
    WHEEL.segments.map((s) => s.weight),
  );
  const segment = WHEEL.segments[derived.segmentPosition - 1];
  return {
    seed: { id: 41, server_seed_hash: rows[0].h, server_seed: serverSeed },
    spin: {
      seed_id: 41,
      client_seed: clientSeed,
      nonce,
      wheel_id: 1,
      attempt: derived.attempt,
      value: derived.value,
      segment_position: derived.segmentPosition,
      label: segment.label,
      prize_credits: segment.prize_credits,
    },
  };
}

describe("verifySpin", () => {
  it("verifies spins the database derived", async () => {
    for (let nonce = 0; nonce < 20; nonce++) {
      const { seed, spin } = await recordedBySql("honest", nonce);
      const result = await verifySpin(spin, seed, WHEEL);
      expect(result.reasons, `nonce ${nonce}`).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.computed?.segmentPosition).toBe(spin.segment_position);
    }
  });

  it("says the spin cannot be checked before the seed is revealed", async () => {
    const { seed, spin } = await recordedBySql("secret", 0);
    const result = await verifySpin(spin, { ...seed, server_seed: null }, WHEEL);
    expect(result.ok).toBe(false);
    expect(result.computed).toBeNull();
    expect(result.reasons.join(" ")).toMatch(/rotate your seed/);
  });

  describe("detects tampering", () => {
    it("a revealed server seed that does not hash to the hash shown before spinning", async () => {
      const { seed, spin } = await recordedBySql("tamper-seed", 3);
      const result = await verifySpin(spin, { ...seed, server_seed: await hexOf("another seed") }, WHEEL);
      expect(result.ok).toBe(false);
      expect(result.reasons.some((r) => r.startsWith("SHA-256 of the server seed"))).toBe(true);
    });

    it("a server seed swapped together with its hash (the recorded segment no longer follows)", async () => {
      const { seed, spin } = await recordedBySql("tamper-pair", 5);
      const other = await hexOf("a swapped seed");
      const swapped = { ...seed, server_seed: other, server_seed_hash: await serverSeedHash(other) };
      const result = await verifySpin(spin, swapped, WHEEL);
      expect(result.ok).toBe(false);
      expect(result.reasons.some((r) => r.startsWith("Value"))).toBe(true);
    });

    it("a changed client seed", async () => {
      const { seed, spin } = await recordedBySql("tamper-client", 1);
      const result = await verifySpin({ ...spin, client_seed: `${spin.client_seed}x` }, seed, WHEEL);
      expect(result.ok).toBe(false);
      expect(result.reasons.some((r) => r.startsWith("Value"))).toBe(true);
    });

    it("a changed nonce", async () => {
      const { seed, spin } = await recordedBySql("tamper-nonce", 7);
      const result = await verifySpin({ ...spin, nonce: 8 }, seed, WHEEL);
      expect(result.ok).toBe(false);
      expect(result.reasons.some((r) => r.startsWith("Value"))).toBe(true);
    });

    it("a changed recorded segment", async () => {
      const { seed, spin } = await recordedBySql("tamper-segment", 2);
      const position = (spin.segment_position % 8) + 1;
      const other = WHEEL.segments[position - 1];
      const result = await verifySpin(
        { ...spin, segment_position: position, label: other.label, prize_credits: other.prize_credits },
        seed,
        WHEEL,
      );
      expect(result.ok).toBe(false);
      expect(result.reasons).toEqual([`Segment: recorded ${position}, computed ${spin.segment_position}`]);
    });

    it("a changed prize or label on the recorded segment", async () => {
      const { seed, spin } = await recordedBySql("tamper-prize", 4);
      const prize = await verifySpin({ ...spin, prize_credits: spin.prize_credits + 1 }, seed, WHEEL);
      expect(prize.ok).toBe(false);
      expect(prize.reasons.some((r) => r.startsWith("Prize"))).toBe(true);
      const label = await verifySpin({ ...spin, label: "£1,000 credit" }, seed, WHEEL);
      expect(label.ok).toBe(false);
      expect(label.reasons.some((r) => r.startsWith("Label"))).toBe(true);
    });

    it("changed wheel weights", async () => {
      const { seed, spin } = await recordedBySql("tamper-weights", 6);
      const heavier: SpinWheel = {
        ...WHEEL,
        segments: WHEEL.segments.map((s) => (s.position === 1 ? { ...s, weight: 90 } : s)),
      };
      const result = await verifySpin(spin, seed, heavier);
      expect(result.ok).toBe(false);
      expect(result.reasons.some((r) => r.startsWith("Value") || r.startsWith("Segment"))).toBe(true);
    });

    it("another seed pair or wheel version than the spin names", async () => {
      const { seed, spin } = await recordedBySql("tamper-ids", 0);
      expect((await verifySpin(spin, { ...seed, id: 42 }, WHEEL)).ok).toBe(false);
      expect((await verifySpin(spin, seed, { ...WHEEL, wheel_id: 2 })).ok).toBe(false);
    });
  });
});
