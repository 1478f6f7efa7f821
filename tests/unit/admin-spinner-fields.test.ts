import { describe, expect, it } from "vitest";
import { contrastRatio, formatContrast } from "@/lib/spinner/contrast";
import { segmentFieldKey, wheelFormSchema } from "@/lib/spinner/wheel-fields";
import { formInput } from "@/lib/actions/action";

// The wheel editor's zod schema (what the browser posts becomes the segments admin_update_spinner_wheel takes,
// with one message per bad field, keyed as the SQL names the field) and the contrast preview's arithmetic.

type Row = { label: string; colour: string; labelColour: string; prize: string; weight: string };

const ROW: Row = { label: "£1 credit", colour: "#047857", labelColour: "#ffffff", prize: "1.00", weight: "12" };

/** What the browser posts: each row's fields under five repeated names. */
function posted(rows: Row[]) {
  const form = new FormData();
  for (const row of rows) for (const [key, value] of Object.entries(row)) form.append(key, value);
  return formInput(form);
}

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe("wheelFormSchema", () => {
  it("turns the rows into segments as SQL takes them: trimmed label, lower-case colour, numbers", () => {
    const segments = wheelFormSchema.parse(
      posted([
        { ...ROW, label: "  Big win  ", colour: "#6D28D9", prize: "10", weight: "1" },
        { ...ROW, label: "No prize", colour: "#facc15", labelColour: "#111111", prize: "0", weight: "1000000" },
      ]),
    );
    expect(segments).toEqual([
      { label: "Big win", colour: "#6d28d9", label_colour: "#ffffff", prize_credits: 10, weight: 1 },
      { label: "No prize", colour: "#facc15", label_colour: "#111111", prize_credits: 0, weight: 1_000_000 },
    ]);
  });

  it("puts one message on each bad field, keyed segments.<n>.<field> as the SQL's detail is", () => {
    const result = wheelFormSchema.safeParse(
      posted([
        { ...ROW, label: " ", colour: "green", labelColour: "#777777" },
        { ...ROW, prize: "2.505", weight: "0" },
        { ...ROW, label: "x".repeat(25), prize: "1000.01", weight: "1.5" },
        { ...ROW, weight: "1000001" },
      ]),
    );
    expect(messages(result)).toEqual({
      [segmentFieldKey(1, "label")]: "Segment 1: give a label of 1 to 24 characters",
      [segmentFieldKey(1, "colour")]: "Segment 1: give the colour as a hex code such as #1d4ed8",
      [segmentFieldKey(1, "label_colour")]: "Segment 1: choose a white or black label",
      [segmentFieldKey(2, "prize_credits")]:
        "Segment 2: give the prize in credits from 0 to 1,000, to 2 decimal places at most (0 for no prize)",
      [segmentFieldKey(2, "weight")]: "Segment 2: give the weight as a whole number from 1 to 1,000,000",
      [segmentFieldKey(3, "label")]: "Segment 3: give a label of 1 to 24 characters",
      [segmentFieldKey(3, "prize_credits")]:
        "Segment 3: give the prize in credits from 0 to 1,000, to 2 decimal places at most (0 for no prize)",
      [segmentFieldKey(3, "weight")]: "Segment 3: give the weight as a whole number from 1 to 1,000,000",
      [segmentFieldKey(4, "weight")]: "Segment 4: give the weight as a whole number from 1 to 1,000,000",
    });
  });

  it("counts a label in characters, as SQL's char_length does", () => {
    expect(wheelFormSchema.safeParse(posted([{ ...ROW, label: "🎉".repeat(24) }, ROW])).success).toBe(true);
  });

  it("takes 2 to 16 segments, each with every field", () => {
    const tooFew = wheelFormSchema.safeParse(posted([ROW]));
    expect(messages(tooFew)).toEqual({ segments: "A wheel has 2 to 16 segments, each with every field" });
    expect(wheelFormSchema.safeParse(posted(Array(16).fill(ROW))).success).toBe(true);
    expect(messages(wheelFormSchema.safeParse(posted(Array(17).fill(ROW))))).toHaveProperty("segments");
    const form = posted([ROW, ROW]);
    form.weight = "5";
    expect(messages(wheelFormSchema.safeParse(form))).toHaveProperty("segments");
  });
});

describe("contrastRatio (the preview of SQL's private.contrast_ratio)", () => {
  it("gives the WCAG ratio to 2 places either way round", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBe(21);
    expect(contrastRatio("#000000", "#ffffff")).toBe(21);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.542, 3);
    // 4.4976: below 4.5 and shown as 4.49, never rounded up to a passing 4.50.
    expect(contrastRatio("#008d66", "#111111")).toBeLessThan(4.5);
    expect(formatContrast(contrastRatio("#008d66", "#111111")!)).toBe("4.49");
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    expect(contrastRatio("#FACC15", "#111111")).toBe(contrastRatio("#facc15", "#111111"));
  });

  it("gives null until both are hex colours", () => {
    expect(contrastRatio("#fff", "#111111")).toBeNull();
    expect(contrastRatio("yellow", "#111111")).toBeNull();
  });
});
