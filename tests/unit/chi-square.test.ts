import { describe, expect, it } from "vitest";
import { chiSquareSurvival, chiSquareTest, logGamma, regularizedUpperGamma } from "@/lib/spinner/chi-square";

/** Q(k, y) for a whole k has a closed form: e^{−y} Σ_{i<k} y^i / i!. */
const upperGammaWhole = (k: number, y: number) => {
  let term = 1;
  let total = 1;
  for (let i = 1; i < k; i++) {
    term *= y / i;
    total += term;
  }
  return Math.exp(-y) * total;
};

describe("chiSquareSurvival", () => {
  it.each([
    // Critical values printed in chi-square tables (3 decimals), so p matches to about 1e-4.
    [1, 3.841, 0.05],
    [1, 6.635, 0.01],
    [2, 5.991, 0.05],
    [7, 14.067, 0.05],
    [8, 20.09, 0.01],
    [15, 30.578, 0.01],
    [15, 24.996, 0.05],
    [30, 43.773, 0.05],
    [100, 124.342, 0.05],
  ])("df=%i, x=%f gives p ≈ %f", (df, x, p) => {
    expect(chiSquareSurvival(x, df)).toBeCloseTo(p, 4);
  });

  it("matches the closed form for even degrees of freedom to 1e-10 (relative), far into the tail", () => {
    for (const df of [2, 4, 6, 8, 14, 30]) {
      for (const x of [0.01, 0.5, 1, 3, 7, 12.5, 20, 40, 80, 200]) {
        const exact = upperGammaWhole(df / 2, x / 2);
        expect(Math.abs(chiSquareSurvival(x, df) - exact) / exact).toBeLessThan(1e-10);
      }
    }
  });

  it("matches erfc for one degree of freedom (Q(1/2, y) = erfc(√y))", () => {
    expect(chiSquareSurvival(2, 1)).toBeCloseTo(0.157299207050285, 12); // erfc(1)
    expect(chiSquareSurvival(8, 1)).toBeCloseTo(0.00467773498104727, 14); // erfc(2)
    expect(chiSquareSurvival(1, 1)).toBeCloseTo(0.317310507862914, 12); // erfc(1/√2)
  });

  it("keeps odd degrees of freedom consistent with Q(a + 1, y) = Q(a, y) + y^a e^{−y} / Γ(a + 1)", () => {
    for (const a of [0.5, 1.5, 3.5, 7.5]) {
      for (const y of [0.2, 2, 9, 30]) {
        const step = Math.exp(a * Math.log(y) - y - logGamma(a + 1));
        const expected = regularizedUpperGamma(a, y) + step;
        expect(Math.abs(regularizedUpperGamma(a + 1, y) - expected) / expected).toBeLessThan(1e-10);
      }
    }
  });

  it("gives 1 at x = 0 and 0 at infinity, and tiny p-values without underflowing to 0 too soon", () => {
    expect(chiSquareSurvival(0, 7)).toBe(1);
    expect(chiSquareSurvival(Infinity, 7)).toBe(0);
    const tail = chiSquareSurvival(200, 7);
    expect(tail).toBeGreaterThan(0);
    expect(tail).toBeLessThan(1e-35);
  });

  it("knows ln Γ at known points", () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(11)).toBeCloseTo(Math.log(3628800), 12);
  });
});

describe("chiSquareTest", () => {
  it("computes Pearson's statistic, the degrees of freedom and the p-value", () => {
    // 50 throws of a fair five-sided die: expected 10 each; Σ (o−e)²/e = (25+4+0+9+16)/10 = 5.4 on 4 df, and
    // Q(2, 2.7) = e^{−2.7}(1 + 2.7).
    const result = chiSquareTest([5, 8, 10, 13, 14], [0.2, 0.2, 0.2, 0.2, 0.2]);
    expect(result.statistic).toBeCloseTo(5.4, 12);
    expect(result.degreesOfFreedom).toBe(4);
    expect(result.pValue).toBeCloseTo(0.248660397137074, 12);
  });

  it("takes weights as well as probabilities", () => {
    const byWeight = chiSquareTest([30, 50, 20], [3, 5, 2]);
    const byProbability = chiSquareTest([30, 50, 20], [0.3, 0.5, 0.2]);
    expect(byWeight.statistic).toBeCloseTo(0, 12);
    expect(byWeight.pValue).toBeCloseTo(byProbability.pValue, 12);
  });

  it("gives p = 1 for a perfect fit and for no observations", () => {
    expect(chiSquareTest([10, 20, 30, 40], [0.1, 0.2, 0.3, 0.4])).toEqual({
      statistic: 0,
      degreesOfFreedom: 3,
      pValue: 1,
    });
    expect(chiSquareTest([0, 0], [0.5, 0.5]).pValue).toBe(1);
  });

  it("gives a tiny p-value for a badly biased sample", () => {
    expect(chiSquareTest([700, 300], [0.5, 0.5]).pValue).toBeLessThan(1e-30);
  });

  it("ignores impossible categories that stay empty, and rejects a count in one", () => {
    expect(chiSquareTest([50, 0, 50], [0.5, 0, 0.5])).toMatchObject({ statistic: 0, degreesOfFreedom: 1, pValue: 1 });
    expect(chiSquareTest([50, 1, 50], [0.5, 0, 0.5])).toMatchObject({ statistic: Infinity, pValue: 0 });
  });

  it("refuses mismatched lengths, negative or non-finite values and fewer than two possible categories", () => {
    expect(() => chiSquareTest([1, 2], [1])).toThrow(RangeError);
    expect(() => chiSquareTest([-1, 2], [0.5, 0.5])).toThrow(RangeError);
    expect(() => chiSquareTest([1, 2], [0.5, Number.NaN])).toThrow(RangeError);
    expect(() => chiSquareTest([1, 2], [1, 0])).toThrow(RangeError);
  });
});
