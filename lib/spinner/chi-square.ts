/**
 * Pearson's chi-square goodness-of-fit test: are the observed counts per category consistent with the given
 * probabilities? Used to check LabSpinner's observed spins against the wheel's weights (admin page, db tests).
 * Pure TypeScript, no dependencies; the p-value is the regularized upper incomplete gamma Q(df / 2, statistic / 2),
 * accurate to about 1e-10 (relative) and free of underflow for very small p-values.
 */

export type ChiSquareResult = {
  /** Σ (observed − expected)² / expected over the categories with a non-zero probability. */
  statistic: number;
  /** Number of categories with a non-zero probability, less one. */
  degreesOfFreedom: number;
  /** Probability of a statistic at least this large if the probabilities are right (1 for a perfect fit). */
  pValue: number;
};

/**
 * @param observed counts per category (non-negative, finite)
 * @param probabilities one per category; weights are fine too (they are divided by their sum)
 */
export function chiSquareTest(observed: readonly number[], probabilities: readonly number[]): ChiSquareResult {
  if (observed.length !== probabilities.length) {
    throw new RangeError(`chiSquareTest: ${observed.length} counts but ${probabilities.length} probabilities`);
  }
  if (observed.some((count) => !Number.isFinite(count) || count < 0)) {
    throw new RangeError("chiSquareTest: counts must be finite and non-negative");
  }
  if (probabilities.some((p) => !Number.isFinite(p) || p < 0)) {
    throw new RangeError("chiSquareTest: probabilities must be finite and non-negative");
  }
  const probabilityTotal = sum(probabilities);
  const possible = probabilities.filter((p) => p > 0).length;
  if (possible < 2) throw new RangeError("chiSquareTest: needs at least two categories with a non-zero probability");

  const total = sum(observed);
  const degreesOfFreedom = possible - 1;
  if (total === 0) return { statistic: 0, degreesOfFreedom, pValue: 1 };

  let statistic = 0;
  for (let i = 0; i < observed.length; i++) {
    const expected = (total * probabilities[i]) / probabilityTotal;
    if (expected === 0) {
      // A count where none can fall: the probabilities are certainly wrong.
      if (observed[i] > 0) return { statistic: Infinity, degreesOfFreedom, pValue: 0 };
      continue;
    }
    statistic += (observed[i] - expected) ** 2 / expected;
  }
  return { statistic, degreesOfFreedom, pValue: chiSquareSurvival(statistic, degreesOfFreedom) };
}

/** P(X ≥ x) for X ~ χ²(df): the regularized upper incomplete gamma Q(df / 2, x / 2). */
export function chiSquareSurvival(x: number, degreesOfFreedom: number): number {
  if (!(degreesOfFreedom > 0)) throw new RangeError("chiSquareSurvival: degrees of freedom must be positive");
  if (Number.isNaN(x)) throw new RangeError("chiSquareSurvival: x is NaN");
  if (x <= 0) return 1;
  if (x === Infinity) return 0;
  return regularizedUpperGamma(degreesOfFreedom / 2, x / 2);
}

/**
 * Q(a, x) = Γ(a, x) / Γ(a). Below x < a + 1 the series for P converges fast (Q = 1 − P); above it Lentz's
 * continued fraction gives Q directly, so small tail probabilities keep their relative precision.
 */
export function regularizedUpperGamma(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError("regularizedUpperGamma: a must be positive");
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - lowerGammaSeries(a, x) : upperGammaContinuedFraction(a, x);
}

const EPSILON = 1e-15;
const MAX_ITERATIONS = 10_000;
const TINY = 1e-300;

/** P(a, x) by its power series: e^{−x} x^a / Γ(a + 1) · Σ x^n / ((a + 1)…(a + n)). */
function lowerGammaSeries(a: number, x: number): number {
  let term = 1 / a;
  let total = term;
  for (let n = 1; n < MAX_ITERATIONS; n++) {
    term *= x / (a + n);
    total += term;
    if (Math.abs(term) < Math.abs(total) * EPSILON) break;
  }
  return total * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Q(a, x) by the continued fraction for Γ(a, x), evaluated with the modified Lentz method. */
function upperGammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let fraction = d;
  for (let n = 1; n < MAX_ITERATIONS; n++) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    fraction *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * fraction;
}

// Lanczos approximation (g = 7, 9 coefficients): about 15 significant digits for positive arguments.
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(z) for z > 0. */
export function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const shifted = z - 1;
  let series = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) series += LANCZOS[i] / (shifted + i);
  const t = shifted + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(series);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
