import { z } from "zod";
import { ENUM_VALUES, LABELS, type EnumValue } from "@/lib/labels";

// The compose form's fields, checked with zod before admin_preview_mail or admin_send_mail sees them (both
// check everything again and have the last word). Shared by the form (limits in hints, labels) and the
// actions. Client-safe: no server imports.

export const MAIL_LIMITS = { subject: { min: 3, max: 120 }, body: { min: 20, max: 5000 } } as const;

/** A campaign's segment in words: "Entrants of Steam Deck OLED" rather than the bare segment. */
export function segmentText(segment: EnumValue<"mail_segment">, competition: { title: string } | null): string {
  return segment === "competition_entrants" && competition
    ? `Entrants of ${competition.title}`
    : LABELS.mail_segment[segment];
}

const { subject, body } = MAIL_LIMITS;

export const composeSchema = z
  .object({
    kind: z.enum(ENUM_VALUES.mail_kind, { error: "Choose marketing or a service notice" }),
    segment: z.enum(ENUM_VALUES.mail_segment, {
      error: "Choose who the mail goes to",
    }),
    competitionId: z.string().trim().prefault(""),
    subject: z
      .string()
      .trim()
      .min(subject.min, `Give a subject of ${subject.min} to ${subject.max} characters`)
      .max(subject.max, `Keep the subject to ${subject.max} characters`)
      .regex(/^[^\r\n]*$/, "Keep the subject on one line")
      .prefault(""),
    // Line endings as SQL counts them (a browser posts CRLF).
    body: z.preprocess(
      (v) => (typeof v === "string" ? v.replace(/\r\n/g, "\n") : (v ?? "")),
      z
        .string()
        .trim()
        .min(body.min, `Write a message of ${body.min} to 5,000 characters`)
        .max(body.max, "Keep the message to 5,000 characters"),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.segment !== "competition_entrants") return;
    if (!z.string().uuid().safeParse(v.competitionId).success) {
      ctx.addIssue({ code: "custom", path: ["competitionId"], message: "Choose the competition" });
    }
  })
  .transform((v) => ({
    kind: v.kind,
    segment: v.segment,
    // Only an entrants segment names a competition; any other leaves it out.
    competitionId: v.segment === "competition_entrants" ? v.competitionId : null,
    subject: v.subject,
    body: v.body,
  }));

export type ComposeInput = z.output<typeof composeSchema>;

export const sendSchema = z.intersection(
  composeSchema,
  z.object({ requestId: z.string().uuid("Preview the mail again before sending").prefault("") }),
);
