// The LabSpinner derivation labcash-spin-v1, with WebCrypto only, so the same code runs in the player's
// browser on /labspinner/verify and in Node in the tests. It mirrors private.spin_derive() in SQL
// (supabase/migrations/20261123150000_labspinner.sql):
//
//   message(attempt)  UTF-8 of "<client seed>:<nonce>" for attempt 0, "<client seed>:<nonce>:<attempt>" after
//   h                 HMAC-SHA256(key = the server seed's 32 raw bytes, message)
//   x                 first 6 bytes of h, unsigned big-endian (48 bits: exact in a JS number)
//   accept            x < 2^48 − (2^48 mod W), W the total weight → value = x mod W; otherwise attempt + 1
//   segment           the first position (1-based, ascending) whose cumulative weight exceeds value

import { bytesToHex, first48Bits, hexToBytes, hmacSha256Key, sha256, uniformBelow } from "@/lib/crypto/bytes";

export const SPIN_ALGORITHM = "labcash-spin-v1";

/** A server seed as the database reveals it: 32 bytes in lowercase hex. */
export const isServerSeedHex = (hex: string) => /^[0-9a-f]{64}$/.test(hex);

export interface SpinInput {
  serverSeedHex: string;
  clientSeed: string;
  nonce: number;
  /** The segments' weights in position order (position 1 first). */
  weights: readonly number[];
}

export interface DerivedSpin {
  attempt: number;
  value: number;
  segmentPosition: number;
}

/** The HMAC message of one attempt. */
export function spinMessage(clientSeed: string, nonce: number, attempt: number): string {
  return attempt === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${attempt}`;
}

/** One rejection-sampling step: the value (0 ≤ value < total weight) for a 48-bit x, or null in the biased tail. */
export function acceptSpinValue(x: number, totalWeight: number): number | null {
  return uniformBelow(x, totalWeight);
}

/** The 1-based position of the first segment whose cumulative weight exceeds `value`. */
export function segmentForValue(value: number, weights: readonly number[]): number {
  let cumulative = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += weights[i];
    if (value < cumulative) return i + 1;
  }
  throw new Error(`The value ${value} is beyond the total weight ${cumulative}`);
}

function checkInput({ serverSeedHex, nonce, weights }: SpinInput): void {
  if (!/^[0-9a-fA-F]{64}$/.test(serverSeedHex)) throw new Error("The server seed is 32 bytes: 64 hex digits");
  if (!Number.isSafeInteger(nonce) || nonce < 0) throw new Error("The nonce is a whole number from 0");
  if (weights.length < 1 || !weights.every((w) => Number.isSafeInteger(w) && w >= 1))
    throw new Error("The wheel needs at least one segment, each with a whole weight of at least 1");
}

/** The segment a server seed, client seed and nonce give over `weights`, with the attempt and value. */
export async function deriveSpin(input: SpinInput): Promise<DerivedSpin> {
  checkInput(input);
  const key = await hmacSha256Key(hexToBytes(input.serverSeedHex));
  const total = input.weights.reduce((sum, w) => sum + w, 0);
  const encoder = new TextEncoder();
  // Each attempt is rejected with probability below W / 2^48, so this ends at once in practice.
  for (let attempt = 0; ; attempt++) {
    const message = encoder.encode(spinMessage(input.clientSeed, input.nonce, attempt));
    const h = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    const value = acceptSpinValue(first48Bits(h), total);
    if (value !== null) return { attempt, value, segmentPosition: segmentForValue(value, input.weights) };
  }
}

/** SHA-256 of a server seed's bytes, in hex: what the player sees before spinning. */
export async function serverSeedHash(serverSeedHex: string): Promise<string> {
  return bytesToHex(await sha256(hexToBytes(serverSeedHex)));
}

/** A recorded spin, as get_my_spin_history returns it (the fields verification reads). */
export interface RecordedSpin {
  seed_id: number;
  client_seed: string;
  nonce: number;
  wheel_id: number;
  attempt: number;
  value: number;
  segment_position: number;
  label: string;
  prize_credits: number;
}

/** A seed pair: the server seed is null until the player rotates it. */
export interface SpinSeed {
  id: number;
  server_seed_hash: string;
  server_seed: string | null;
}

export interface SpinWheelSegment {
  position: number;
  label: string;
  prize_credits: number;
  weight: number;
}

/** A wheel version: its segments in any order (they are sorted by position here). */
export interface SpinWheel {
  wheel_id: number;
  segments: readonly SpinWheelSegment[];
}

export interface SpinVerification {
  ok: boolean;
  /** Why it does not match, one line a failed check (empty when ok). */
  reasons: string[];
  /** The recomputation, or null when it could not run (seed not revealed or malformed, wheel missing). */
  computed: (DerivedSpin & { segment: SpinWheelSegment | null }) | null;
}

/** The wheel's segments in position order, as the derivation reads their weights. */
export function segmentsInOrder(wheel: SpinWheel): SpinWheelSegment[] {
  return [...wheel.segments].sort((a, b) => a.position - b.position);
}

/**
 * Recomputes a recorded spin: the revealed server seed hashes to the hash shown before the spin, and the
 * derivation over the wheel version it used gives the recorded attempt, value and segment, whose label and
 * prize are the ones recorded.
 */
export async function verifySpin(spin: RecordedSpin, seed: SpinSeed, wheel: SpinWheel): Promise<SpinVerification> {
  const reasons: string[] = [];
  if (seed.id !== spin.seed_id) reasons.push(`The spin used seed pair ${spin.seed_id}, not ${seed.id}`);
  if (wheel.wheel_id !== spin.wheel_id)
    reasons.push(`The spin used wheel version ${spin.wheel_id}, not ${wheel.wheel_id}`);
  if (seed.server_seed === null) {
    reasons.push("The server seed is not revealed yet: rotate your seed to verify");
    return { ok: false, reasons, computed: null };
  }
  if (!isServerSeedHex(seed.server_seed)) {
    reasons.push("The revealed server seed is not 64 lowercase hex digits");
    return { ok: false, reasons, computed: null };
  }
  const hash = await serverSeedHash(seed.server_seed);
  if (hash !== seed.server_seed_hash)
    reasons.push(
      `SHA-256 of the server seed is ${hash}, not the hash shown before the spin (${seed.server_seed_hash})`,
    );

  const segments = segmentsInOrder(wheel);
  if (!segments.every((s, i) => s.position === i + 1)) {
    reasons.push("The wheel's segments are not numbered 1, 2, 3… in order");
    return { ok: false, reasons, computed: null };
  }
  const derived = await deriveSpin({
    serverSeedHex: seed.server_seed,
    clientSeed: spin.client_seed,
    nonce: spin.nonce,
    weights: segments.map((s) => s.weight),
  });
  const segment = segments[derived.segmentPosition - 1] ?? null;
  if (derived.attempt !== spin.attempt) reasons.push(`Attempt: recorded ${spin.attempt}, computed ${derived.attempt}`);
  if (derived.value !== spin.value) reasons.push(`Value: recorded ${spin.value}, computed ${derived.value}`);
  if (derived.segmentPosition !== spin.segment_position) {
    reasons.push(`Segment: recorded ${spin.segment_position}, computed ${derived.segmentPosition}`);
  } else if (segment) {
    if (segment.label !== spin.label)
      reasons.push(`Label: recorded "${spin.label}", the wheel says "${segment.label}"`);
    if (segment.prize_credits !== spin.prize_credits)
      reasons.push(`Prize: recorded ${spin.prize_credits} credits, the wheel says ${segment.prize_credits}`);
  }
  return { ok: reasons.length === 0, reasons, computed: { ...derived, segment } };
}
