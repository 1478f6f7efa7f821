import { describe, expect, it } from "vitest";
import { fromPence, toPence } from "@/lib/payments/minor-units";

// Stripe's pence and SQL's pounds: the decimal point moves, the amount never changes.
describe("toPence", () => {
  it("reads pounds with up to two decimals as whole pence", () => {
    expect(toPence(60)).toBe(6000);
    expect(toPence(61.5)).toBe(6150);
    expect(toPence("0.07")).toBe(7);
    expect(toPence(5000)).toBe(500000);
    // The float 0.29 is 0.28999…; the text of it is what counts.
    expect(toPence(0.29)).toBe(29);
    expect(toPence(1234567.89)).toBe(123456789);
  });

  it("refuses what is not an amount in pounds and pence", () => {
    expect(() => toPence("12.345")).toThrow();
    expect(() => toPence("-5")).toThrow();
    expect(() => toPence("abc")).toThrow();
    expect(() => toPence(Number.NaN)).toThrow();
  });
});

describe("fromPence", () => {
  it("writes whole pence as pounds", () => {
    expect(fromPence(6000)).toBe(60);
    expect(fromPence(6150)).toBe(61.5);
    expect(fromPence(7)).toBe(0.07);
    expect(fromPence(0)).toBe(0);
    expect(fromPence(123456789)).toBe(1234567.89);
  });

  it("refuses fractions and negatives", () => {
    expect(() => fromPence(12.5)).toThrow();
    expect(() => fromPence(-1)).toThrow();
  });
});
