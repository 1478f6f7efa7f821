// Stripe counts money in pence (integers); SQL and the app in pounds (numeric with two decimals).
// These convert between the two notations by moving the decimal point in the text: no arithmetic.

/** 60 or 60.5 or "60.50" (pounds, at most two decimals) → 6000 / 6050 (pence). */
export function toPence(pounds: number | string): number {
  const text = typeof pounds === "number" ? pounds.toFixed(2) : pounds;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new Error(`not an amount in pounds with at most two decimals: ${text}`);
  return Number.parseInt(`${match[1]}${(match[2] ?? "").padEnd(2, "0")}`, 10);
}

/** 6050 (pence) → 60.5 (pounds), for SQL's numeric arguments (parsed from the text "60.50"). */
export function fromPence(pence: number): number {
  if (!Number.isSafeInteger(pence) || pence < 0) throw new Error(`not a whole number of pence: ${pence}`);
  const digits = String(pence).padStart(3, "0");
  return Number(`${digits.slice(0, -2)}.${digits.slice(-2)}`);
}
