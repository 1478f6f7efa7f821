/**
 * The demo spin's segment (1-based position): a uniform value below the total weight from
 * crypto.getRandomValues, with rejection sampling so no segment is favoured, then the first
 * segment whose cumulative weight exceeds it — the same weights and rule as a real spin, but
 * picked in the browser, recorded nowhere and paying nothing.
 */
export function pickDemoSegment(weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const range = 2 ** 32;
  const acceptBelow = range - (range % total);
  const draw = new Uint32Array(1);
  let value: number;
  do {
    crypto.getRandomValues(draw);
    value = draw[0];
  } while (value >= acceptBelow);
  value %= total;
  let cumulative = 0;
  for (const [index, weight] of weights.entries()) {
    cumulative += weight;
    if (value < cumulative) return index + 1;
  }
  return weights.length;
}
