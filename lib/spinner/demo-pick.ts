import { first48Bits, uniformBelow } from "@/lib/crypto/bytes";
import { segmentForValue } from "@/lib/spinner/derive";

/**
 * The demo spin's segment (1-based position): 48 random bits from crypto.getRandomValues, rejection
 * sampling and the segment rule of a real spin (lib/spinner/derive.ts), over the same weights, but
 * picked in the browser, recorded nowhere and paying nothing.
 */
export function pickDemoSegment(weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const bytes = new Uint8Array(6);
  let value: number | null = null;
  while (value === null) value = uniformBelow(first48Bits(crypto.getRandomValues(bytes)), total);
  return segmentForValue(value, weights);
}
