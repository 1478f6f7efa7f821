import { z } from "zod";
import { formList } from "@/lib/actions/action";

// The wheel editor's fields, checked with zod (one message per field) before admin_update_spinner_wheel, which
// checks every segment again (and the label contrast, which only it decides) and has the last word. Shared by
// the form (limits, names) and the action. Every message is keyed as the SQL names the field in its error's
// detail, `segments.<n>.<field>` (n from 1), so a refusal from either lands on the same field.

export const MIN_SEGMENTS = 2;
export const MAX_SEGMENTS = 16;
export const LABEL_MAX = 24;
export const PRIZE_MAX = 1000;
export const WEIGHT_MAX = 1_000_000;

/** The two label colours SQL allows: white and near-black. */
export const LABEL_COLOURS = ["#ffffff", "#111111"] as const;
export type LabelColour = (typeof LABEL_COLOURS)[number];
export const LABEL_COLOUR_NAMES: Record<LabelColour, string> = { "#ffffff": "White", "#111111": "Black" };

/** The fields of a segment, as SQL names them. */
export type SegmentField = "label" | "colour" | "label_colour" | "prize_credits" | "weight";

/** The key of a segment field's messages: the SQL's detail for it (`segments.3.weight`). */
export const segmentFieldKey = (position: number, field: SegmentField) => `segments.${position}.${field}`;
/** The key of a message about the whole list (how many segments). */
export const SEGMENTS_KEY = "segments";

/** A segment as admin_update_spinner_wheel takes it. */
export type SegmentInput = {
  label: string;
  colour: string;
  label_colour: LabelColour;
  prize_credits: number;
  weight: number;
};

/** A row of the editor as its inputs hold it (text), in position order. */
export type SegmentRow = { label: string; colour: string; labelColour: LabelColour; prize: string; weight: string };

const isLabelColour = (colour: string): colour is LabelColour => (LABEL_COLOURS as readonly string[]).includes(colour);

/**
 * A segment of the live wheel as an editor row. Prize as the input shows it ("0.50"): display only. SQL stores
 * only the two label colours; anything else would show as white, for the contrast preview to judge.
 */
export const segmentRow = (segment: Omit<SegmentInput, "label_colour"> & { label_colour: string }): SegmentRow => ({
  label: segment.label,
  colour: segment.colour,
  labelColour: isLabelColour(segment.label_colour) ? segment.label_colour : "#ffffff",
  prize: segment.prize_credits.toFixed(2),
  weight: String(segment.weight),
});

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;
const PRIZE = /^\d{1,4}(\.\d{1,2})?$/;
const WEIGHT = /^\d{1,7}$/;

/** The problems with one segment's fields (the first per field), in the words the form shows. */
export function segmentIssues(row: SegmentRow, position: number): [SegmentField, string][] {
  const issues: [SegmentField, string][] = [];
  const label = row.label.trim();
  // Counted in characters as SQL's char_length does (an emoji is one).
  if ([...label].length < 1 || [...label].length > LABEL_MAX)
    issues.push(["label", `Segment ${position}: give a label of 1 to ${LABEL_MAX} characters`]);
  if (!HEX_COLOUR.test(row.colour.trim()))
    issues.push(["colour", `Segment ${position}: give the colour as a hex code such as #1d4ed8`]);
  if (!isLabelColour(row.labelColour))
    issues.push(["label_colour", `Segment ${position}: choose a white or black label`]);
  const prize = row.prize.trim();
  if (!PRIZE.test(prize) || Number(prize) > PRIZE_MAX)
    issues.push([
      "prize_credits",
      `Segment ${position}: give the prize in credits from 0 to ${PRIZE_MAX.toLocaleString("en-GB")}, to 2 decimal places at most (0 for no prize)`,
    ]);
  const weight = row.weight.trim();
  if (!WEIGHT.test(weight) || Number(weight) < 1 || Number(weight) > WEIGHT_MAX)
    issues.push([
      "weight",
      `Segment ${position}: give the weight as a whole number from 1 to ${WEIGHT_MAX.toLocaleString("en-GB")}`,
    ]);
  return issues;
}

/** The rows the form posts: one value per row under each of five repeated names. */
const postedSchema = z.object({
  label: formList,
  colour: formList,
  labelColour: formList,
  prize: formList,
  weight: formList,
});

const rowsOf = (posted: z.output<typeof postedSchema>): SegmentRow[] =>
  posted.label.map((label, i) => ({
    label,
    colour: posted.colour[i] ?? "",
    labelColour: (posted.labelColour[i] ?? "") as LabelColour,
    prize: posted.prize[i] ?? "",
    weight: posted.weight[i] ?? "",
  }));

/** The editor's rows, checked, as the segments admin_update_spinner_wheel takes. */
export const wheelFormSchema = postedSchema
  .superRefine((posted, ctx) => {
    const lengths = new Set(Object.values(posted).map((list) => list.length));
    const count = posted.label.length;
    if (lengths.size !== 1 || count < MIN_SEGMENTS || count > MAX_SEGMENTS) {
      ctx.addIssue({
        code: "custom",
        path: [SEGMENTS_KEY],
        message: `A wheel has ${MIN_SEGMENTS} to ${MAX_SEGMENTS} segments, each with every field`,
      });
      return;
    }
    rowsOf(posted).forEach((row, i) => {
      for (const [field, message] of segmentIssues(row, i + 1))
        ctx.addIssue({ code: "custom", path: [segmentFieldKey(i + 1, field)], message });
    });
  })
  .transform((posted): SegmentInput[] =>
    rowsOf(posted).map((row) => ({
      label: row.label.trim(),
      colour: row.colour.trim().toLowerCase(),
      label_colour: row.labelColour,
      prize_credits: Number(row.prize.trim()),
      weight: Number(row.weight.trim()),
    })),
  );

/** A postal request for a spin credit: the player's account e-mail and a reference for the letter. */
export const spinRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .refine((v) => z.email().safeParse(v).success, "Give the e-mail address of the player's account")
    .prefault(""),
  reference: z
    .string()
    .trim()
    .min(1, "Give the letter a reference of 1 to 100 characters, such as the date it arrived")
    .max(100, "Give the letter a reference of 1 to 100 characters, such as the date it arrived")
    .prefault(""),
});
