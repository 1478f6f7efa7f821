import { describe, expect, it } from "vitest";
import { complaintFormSchema } from "@/lib/complaints/complaint-rules";

// The complaint form's schema must refuse exactly what submit_complaint refuses (subject 3–120, reference at most
// 100, details 20–5000, counted as SQL's char_length counts, after trimming), so a refusal is always per field.

const details = "Something went wrong with my entry.";

describe("complaintFormSchema", () => {
  it("trims the fields and turns an empty reference into null", () => {
    expect(complaintFormSchema.parse({ subject: "  Late prize  ", reference: "  ", details: ` ${details} ` })).toEqual({
      subject: "Late prize",
      reference: null,
      details,
    });
    expect(complaintFormSchema.parse({ subject: "Late prize", details }).reference).toBeNull();
  });

  it("gives each field its own message", () => {
    const result = complaintFormSchema.safeParse({ subject: "No", reference: "x".repeat(101), details: "short" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(messages).toEqual({
      subject: "Enter a subject of at least 3 characters",
      reference: "Keep the reference to 100 characters or fewer",
      details: "Tell us what happened in at least 20 characters",
    });
  });

  it("accepts the limits and refuses one character past them", () => {
    const ok = { subject: "x".repeat(120), reference: "r".repeat(100), details: "d".repeat(5000) };
    expect(complaintFormSchema.safeParse(ok).success).toBe(true);
    expect(complaintFormSchema.safeParse({ ...ok, subject: "x".repeat(121) }).success).toBe(false);
    expect(complaintFormSchema.safeParse({ ...ok, details: "d".repeat(5001) }).success).toBe(false);
    expect(complaintFormSchema.safeParse({ ...ok, subject: "abc", details: "d".repeat(20) }).success).toBe(true);
  });

  it("counts characters as SQL does, so an emoji is one", () => {
    expect(complaintFormSchema.safeParse({ subject: "😀".repeat(120), details }).success).toBe(true);
    expect(complaintFormSchema.safeParse({ subject: "😀😀", details }).success).toBe(false);
  });

  it("asks for a missing subject and details", () => {
    const result = complaintFormSchema.safeParse({});
    expect(result.error!.issues.map((i) => i.message)).toEqual(["Enter a subject", "Tell us what happened"]);
  });
});
