import { describe, expect, it } from "vitest";
import { parseForm } from "@/lib/actions/action";
import { fail, FORM_KEY, invalid, ok, placeRefusal } from "@/lib/actions/result";
import { signUpSchema, UNDER_18 } from "@/lib/validation/auth";

function signUpForm(changes: Record<string, string | null>) {
  const values: Record<string, string | null> = {
    name: "Ada Lovelace",
    email: "ada@example.test",
    password: "Str0ngPassword",
    dateOfBirth: "1990-01-01",
    terms: "on",
    ...changes,
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) if (value !== null) form.set(key, value);
  return form;
}

function signUpErrors(changes: Record<string, string | null>) {
  const parsed = parseForm(signUpSchema, signUpForm(changes));
  if (parsed.success) throw new Error("expected a refusal");
  return invalid(parsed.error.issues).fieldErrors;
}

describe("invalid: one message per field", () => {
  it("keeps each field's first message, in the schema's order", () => {
    const failure = invalid([
      { path: ["dateOfBirth"], message: "Enter your date of birth" },
      { path: ["dateOfBirth"], message: UNDER_18 },
      { path: ["terms"], message: "Please accept the terms and conditions" },
    ]);
    expect(failure.fieldErrors).toEqual({
      dateOfBirth: ["Enter your date of birth"],
      terms: ["Please accept the terms and conditions"],
    });
    expect(failure.error).toBe("Enter your date of birth");
  });

  it("puts a check on the whole form under the form key", () => {
    expect(invalid([{ path: [], message: "Fill in both" }]).fieldErrors).toEqual({ [FORM_KEY]: ["Fill in both"] });
  });

  it("gives sign-up's missing date of birth one message, and under-18 its own", () => {
    expect(signUpErrors({ dateOfBirth: "" })).toEqual({ dateOfBirth: ["Enter your date of birth"] });
    const sixteen = `${new Date().getUTCFullYear() - 16}-01-01`;
    expect(signUpErrors({ dateOfBirth: sixteen, terms: null })).toEqual({
      dateOfBirth: [UNDER_18],
      terms: ["Please accept the terms and conditions"],
    });
  });
});

describe("placeRefusal: beside the field, or form-level", () => {
  const shown = new Set(["email", "password"]);

  it("shows nothing for no result or a success", () => {
    expect(placeRefusal(null, shown)).toEqual({ formErrors: [] });
    expect(placeRefusal(ok(undefined, "Saved"), shown)).toEqual({ formErrors: [] });
  });

  it("puts messages for shown fields beside them and the rest at form level", () => {
    const refusal = fail("Enter a valid e-mail address", {
      fieldErrors: { email: ["Enter a valid e-mail address"], next: ["Unknown page"], [FORM_KEY]: ["Try again"] },
    });
    expect(placeRefusal(refusal, shown)).toEqual({
      beside: { email: ["Enter a valid e-mail address"] },
      formErrors: ["Unknown page", "Try again"],
    });
  });

  it("shows a refusal about no field at form level only", () => {
    expect(placeRefusal(fail("That e-mail and password do not match an account."), shown)).toEqual({
      formErrors: ["That e-mail and password do not match an account."],
    });
  });

  it("places a database refusal beside the field its code belongs to", () => {
    const taken = fail("That address is taken", { code: "slug_taken" });
    expect(placeRefusal(taken, new Set(["slug"]), { slug_taken: "slug" })).toEqual({
      beside: { slug: ["That address is taken"] },
      formErrors: [],
    });
    expect(placeRefusal(taken, new Set(["title"]), { slug_taken: "slug" })).toEqual({
      formErrors: ["That address is taken"],
    });
  });
});
