import { describe, expect, it } from "vitest";
import { EMAIL_OTP } from "@/supabase/embedded";
import {
  EMAIL_CODE_LENGTH,
  UNDER_18,
  ageOn,
  authenticatorCode,
  signInCodeSchema,
  signUpSchema,
  weakPasswordReasons,
} from "@/lib/validation/auth";

const today = new Date(Date.UTC(2026, 10, 21));

describe("ageOn", () => {
  it("counts whole years, turning over on the birthday", () => {
    expect(ageOn("2008-11-21", today)).toBe(18);
    expect(ageOn("2008-11-22", today)).toBe(17);
    expect(ageOn("1990-01-01", today)).toBe(36);
  });

  it("rejects impossible dates", () => {
    expect(ageOn("2001-02-30", today)).toBeNull();
    expect(ageOn("not a date", today)).toBeNull();
  });
});

describe("weakPasswordReasons", () => {
  it("lists every rule a password breaks", () => {
    expect(weakPasswordReasons("abc")).toEqual([
      "Use at least 8 characters",
      "Include an upper-case letter",
      "Include a digit",
    ]);
    expect(weakPasswordReasons("Str0ngEnough")).toEqual([]);
  });
});

describe("signUpSchema", () => {
  const valid = {
    name: "Ada",
    email: "ADA@Example.com ",
    password: "Str0ngEnough",
    dateOfBirth: "1990-05-05",
    terms: "on",
  };

  it("accepts a complete adult sign-up and normalises the e-mail", () => {
    const parsed = signUpSchema.parse(valid);
    expect(parsed.email).toBe("ada@example.com");
  });

  it("refuses under-18s with the product's message", () => {
    const dob = new Date();
    dob.setUTCFullYear(dob.getUTCFullYear() - 17);
    const result = signUpSchema.safeParse({ ...valid, dateOfBirth: dob.toISOString().slice(0, 10) });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(UNDER_18);
  });

  it("requires the terms to be accepted", () => {
    const result = signUpSchema.safeParse({ ...valid, terms: undefined });
    expect(result.error?.issues[0]?.path).toEqual(["terms"]);
  });
});

describe("codes", () => {
  const signInCode = (code: string) => signInCodeSchema.safeParse({ email: "player@labcash.test", code });

  it("an e-mailed code is the digits the auth server sends (8, as config.toml and the embedded backend say)", () => {
    expect(EMAIL_CODE_LENGTH).toBe(EMAIL_OTP.length);
    expect(signInCode("1234 5678").data?.code).toBe("12345678");
    expect(signInCode("123456").error?.issues[0].message).toBe("Enter the 8-digit code from the e-mail");
    expect(signInCode("123456789").success).toBe(false);
  });

  it("an authenticator app's code stays six digits", () => {
    const code = authenticatorCode("Enter the 6-digit code from your authenticator app");
    expect(code.safeParse("123 456").data).toBe("123456");
    expect(code.safeParse("12345678").success).toBe(false);
  });
});
