import { z } from "zod";

// What a complaint must contain: the form's hints, the action's schema and submit_complaint agree on these.
export const COMPLAINT_LIMITS = {
  subject: { min: 3, max: 120 },
  reference: { max: 100 },
  details: { min: 20, max: 5000 },
} as const;

const { subject, reference, details } = COMPLAINT_LIMITS;

/** Length in characters as SQL's char_length counts them (code points, so an emoji is one). */
const length = (text: string) => [...text].length;

export const complaintFormSchema = z.object({
  subject: z
    .string({ error: "Enter a subject" })
    .trim()
    .refine((s) => length(s) >= subject.min, `Enter a subject of at least ${subject.min} characters`)
    .refine((s) => length(s) <= subject.max, `Keep the subject to ${subject.max} characters or fewer`),
  reference: z
    .string()
    .trim()
    .refine((s) => length(s) <= reference.max, `Keep the reference to ${reference.max} characters or fewer`)
    .optional()
    .transform((value) => value || null),
  details: z
    .string({ error: "Tell us what happened" })
    .trim()
    .refine((s) => length(s) >= details.min, `Tell us what happened in at least ${details.min} characters`)
    .refine(
      (s) => length(s) <= details.max,
      `Keep the details to ${details.max.toLocaleString("en-GB")} characters or fewer`,
    ),
});
