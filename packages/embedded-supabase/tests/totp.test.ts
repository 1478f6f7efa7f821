import { describe, expect, it } from "vitest";
import { newTotpSecret, otpauthUri, totpCode, totpMatches } from "../src/totp";

// RFC 6238 appendix B, SHA-1 (the 20-byte key "12345678901234567890" in base32), cut to six digits.
const RFC_KEY = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const RFC_VECTORS: [number, string][] = [
  [59, "287082"],
  [1111111109, "081804"],
  [1111111111, "050471"],
  [1234567890, "005924"],
  [2000000000, "279037"],
];

describe("TOTP", () => {
  it("gives RFC 6238's codes", () => {
    for (const [time, code] of RFC_VECTORS) expect(totpCode(RFC_KEY, time)).toBe(code);
  });

  it("accepts the code of the step before and after (GoTrue's skew of 1), nothing further or malformed", () => {
    const now = 1_800_000_015;
    expect(totpMatches(RFC_KEY, totpCode(RFC_KEY, now), now)).toBe(true);
    expect(totpMatches(RFC_KEY, totpCode(RFC_KEY, now - 30), now)).toBe(true);
    expect(totpMatches(RFC_KEY, totpCode(RFC_KEY, now + 30), now)).toBe(true);
    expect(totpMatches(RFC_KEY, totpCode(RFC_KEY, now - 60), now)).toBe(false);
    expect(totpMatches(RFC_KEY, totpCode(RFC_KEY, now + 60), now)).toBe(false);
    expect(totpMatches(RFC_KEY, "12345", now)).toBe(false);
    expect(totpMatches(RFC_KEY, "abcdef", now)).toBe(false);
  });

  it("makes 20-byte keys in unpadded base32, different each time", () => {
    const a = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(a);
  });

  it("writes the otpauth URI authenticator apps read", () => {
    expect(otpauthUri("LabCash", "ada@example.test", RFC_KEY)).toBe(
      `otpauth://totp/LabCash:ada@example.test?algorithm=SHA1&digits=6&issuer=LabCash&period=30&secret=${RFC_KEY}`,
    );
  });
});
