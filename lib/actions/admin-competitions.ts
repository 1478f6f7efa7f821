"use server";

import { revalidatePath } from "next/cache";
import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { redirect } from "next/navigation";
import { z } from "zod";
import { createCompetitionSchema, plainNewlines, updateCompetitionSchema } from "@/lib/competitions/competition-fields";
import {
  adminCancelCompetition,
  adminCreateCompetition,
  adminFindAccount,
  adminGetCompetition,
  adminPublishCompetition,
  adminRecordPostalEntry,
  adminMarkInstantWinDelivered,
  adminSetInstantWinPrizes,
  adminUpdateCompetition,
  adminUpdatePrizeFulfilment,
  type PrizeFulfilment,
} from "@/lib/data/admin-competitions";
import { COMPETITION_IMAGE_BUCKET } from "@/lib/competitions/images";
import { removeImages } from "@/lib/data/stored-images";
import { DbError } from "@/lib/data/errors";
import { PRIZE_STATUS, PRIZE_STATUSES } from "@/lib/prizes/steps";
import { ENUM_VALUES, type EnumValue } from "@/lib/labels";
import { UK_POSTCODE } from "@/lib/validation/postcode";
import { formList } from "./action";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";
import { log } from "@/lib/observability/log";

// The admin competition screens' actions. Each checks the admin role here, and every SQL
// function checks it again; a refusal comes back with SQL's message and code.

const id = z.string().uuid("Unknown competition");

/** Saves a draft and opens its page. */
export const createCompetitionAction = defineAction(
  { schema: createCompetitionSchema, role: "admin" },
  async (fields) => {
    const created = await adminCreateCompetition(fields);
    revalidatePath("/admin/competitions");
    redirect(`/admin/competitions/${created.id}?saved=created`);
  },
);

/** Saves the fields the competition's state lets change (the form sends only those). */
export const updateCompetitionAction = defineAction(
  { schema: updateCompetitionSchema, role: "admin" },
  async ({ id: competitionId, fields }) => {
    // Images are sent only when the competition's state let them change.
    const images = Array.isArray(fields.images) ? fields.images : null;
    const before = images ? await adminGetCompetition(competitionId) : null;
    await adminUpdateCompetition(competitionId, fields);
    if (before && images) await discardDroppedImages(before.images, images);
    revalidatePath("/admin/competitions");
    revalidateCompetitionPages();
    redirect(`/admin/competitions/${competitionId}?saved=updated`);
  },
);

/**
 * Deletes the stored images a saved edit dropped (removed or replaced on the form). After the save, so a
 * refused save never loses an image the competition still shows; a failure here leaves an unused file
 * in the bucket, which is logged, not shown: the save itself succeeded.
 */
async function discardDroppedImages(before: string[], after: string[]): Promise<void> {
  const dropped = before.filter((path) => !after.includes(path));
  try {
    await removeImages(COMPETITION_IMAGE_BUCKET, dropped);
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    log("error", "competition_images_not_deleted", { paths: dropped, error: e });
  }
}

const isInstantWinKind = (k: string): k is EnumValue<"instant_win_kind"> =>
  (ENUM_VALUES.instant_win_kind as readonly string[]).includes(k);

/** The instant-win rows of the form: a row with no kind is empty and left out. */
const instantWinRows = z
  .object({ id, kind: formList, title: formList, amount: formList, count: formList })
  .transform(({ id: competitionId, kind, title, amount, count }) => ({
    competitionId,
    prizes: kind.flatMap((k, i) =>
      isInstantWinKind(k)
        ? [
            {
              kind: k,
              title: title[i]?.trim() || null,
              credit_amount: k === "credit" ? Number(amount[i] ?? "") : null,
              quantity: Number(count[i] ?? ""),
            },
          ]
        : [],
    ),
  }));

/** Replaces a draft's instant-win prizes; SQL refuses them after publishing or beyond the tickets. */
export const setInstantWinPrizesAction = defineAction(
  { schema: instantWinRows, role: "admin" },
  async ({ competitionId, prizes }) => {
    const saved = await adminSetInstantWinPrizes(competitionId, prizes);
    revalidatePath(`/admin/competitions/${competitionId}`);
    const total = saved.prizes.reduce((n, p) => n + p.quantity, 0);
    return ok(null, total === 0 ? "No instant wins." : `Instant wins saved: ${total} winning numbers.`);
  },
);

/** Marks an instant-win prize delivered (audited; the winner is notified). */
export const markInstantWinDeliveredAction = defineAction(
  { schema: z.object({ instantWinId: z.string().uuid("Unknown instant win") }), role: "admin" },
  async ({ instantWinId }) => {
    await adminMarkInstantWinDelivered(instantWinId);
    revalidatePath("/admin/competitions/winners");
    return ok(null, "Marked delivered.");
  },
);

/** Makes a draft live; the page then shows the seed commitment. */
export const publishCompetitionAction = defineAction(
  { schema: z.object({ id }), role: "admin" },
  async ({ id: competitionId }) => {
    await adminPublishCompetition(competitionId);
    revalidatePath("/admin/competitions");
    revalidateCompetitionPages();
    redirect(`/admin/competitions/${competitionId}?saved=published`);
  },
);

/** Cancels and refunds every paid entry to credit (confirmed in a dialog, with a reason). */
export const cancelCompetitionAction = defineAction(
  {
    schema: z.object({
      id,
      reason: z
        .string()
        .trim()
        .min(3, "Give a reason of at least 3 characters")
        .max(500, "Keep the reason to 500 characters")
        .prefault(""),
    }),
    role: "admin",
  },
  async ({ id: competitionId, reason }) => {
    const result = await adminCancelCompetition(competitionId, reason);
    revalidatePath("/admin/competitions");
    revalidateCompetitionPages();
    redirect(`/admin/competitions/${competitionId}?saved=cancelled&refunded=${result.refunded_entries}`);
  },
);

// A UK postcode somewhere in the address, as admin_record_postal_entry looks for it.

const postalSchema = z.object({
  competitionId: id,
  name: z
    .string()
    .trim()
    .min(2, "Give the entrant's name (2 to 100 characters)")
    .max(100, "Keep the name to 100 characters")
    .prefault(""),
  address: z
    .string()
    .overwrite(plainNewlines)
    .trim()
    .min(5, "Give the postal address (5 to 500 characters)")
    .max(500, "Keep the address to 500 characters")
    .regex(UK_POSTCODE, "The address must include a UK postcode (e.g. HG1 2AB)")
    .prefault(""),
  email: z
    .string()
    .trim()
    .prefault("")
    .refine((v) => v === "" || z.email().safeParse(v).success, "Give the account's e-mail address, or leave it empty"),
  // Sent only when the competition has a question (the form's select, whose blank choice is "").
  answer: z
    .string()
    .trim()
    .max(300, "Keep the answer to 300 characters")
    .refine((v) => v !== "", "Choose the answer the letter gives")
    .optional(),
});

export type PostalEntryRecorded = { ticketNumbers: number[]; tickets: number; name: string };

/** Records a free postal entry; answers the ticket numbers it was given. */
export const recordPostalEntryAction = defineAction(
  { schema: postalSchema, role: "admin" },
  async ({ competitionId, name, address, email, answer }) => {
    const account = email === "" ? null : await adminFindAccount(email);
    if (email !== "" && !account) {
      return fail("No account has that e-mail address", {
        code: "user_not_found",
        fieldErrors: { email: ["No account has this e-mail address: check it, or leave it empty"] },
      });
    }
    const entry = await adminRecordPostalEntry({
      competitionId,
      userId: account?.id ?? null,
      name,
      address,
      answer: answer ?? null,
    });
    revalidatePath(`/admin/competitions/${competitionId}`);
    revalidateCompetitionPages();
    const numbers = entry.ticket_numbers.map((n) => `#${n}`).join(", ");
    // A letter can hit an instant win like a paid ticket; the admin must know (an entrant without an
    // account hears of it by post: the prize is on the winners page's "Instant wins to deliver").
    const wins = entry.instant_wins.map((w) => ` Instant win: ticket #${w.ticket_number} won ${w.prize}.`).join("");
    return ok<PostalEntryRecorded>(
      { ticketNumbers: entry.ticket_numbers, tickets: entry.tickets, name },
      `Recorded ${name}'s postal entry: ${entry.tickets === 1 ? "ticket" : "tickets"} ${numbers}.${wins}`,
    );
  },
);

/**
 * Moves a prize along awaiting claim → claimed → verified → delivered, with a note and the proof-of-delivery reference.
 * The step to verified carries the identity check: the form sends `identityCheckDue` while the prize is not yet
 * verified, and SQL refuses the step without a check whatever the form sent.
 */
export const updatePrizeFulfilmentAction = defineAction(
  {
    schema: z
      .object({
        drawId: z.string().uuid("Unknown draw"),
        status: z.enum(PRIZE_STATUSES, { error: "Choose the prize's status" }),
        note: z.string().trim().max(2000, "Keep the note to 2,000 characters").prefault(""),
        proofOfDelivery: z.string().trim().max(200, "Keep the reference to 200 characters").prefault(""),
        identityCheckDue: z.literal("yes").optional(),
        documentType: z
          .union([z.enum(ENUM_VALUES.identity_document), z.literal("")], { error: "Choose the document you checked" })
          .prefault(""),
        documentLastFour: z.string().trim().toUpperCase().prefault(""),
        identityNote: z.string().trim().max(500, "Keep the identity check's note to 500 characters").prefault(""),
      })
      .refine((v) => v.status !== "delivered" || v.proofOfDelivery !== "", {
        path: ["proofOfDelivery"],
        message: "Give the proof-of-delivery reference (a tracking number, signed receipt or bank transfer reference)",
      })
      .superRefine((v, ctx) => {
        if (v.status !== "verified" || !v.identityCheckDue) return;
        if (v.documentType === "") {
          ctx.addIssue({ code: "custom", path: ["documentType"], message: "Choose the document you checked" });
        }
        if (!/^[A-Z0-9]{4}$/.test(v.documentLastFour)) {
          ctx.addIssue({
            code: "custom",
            path: ["documentLastFour"],
            message: "Give the last four letters or digits of the document's number, never the whole number",
          });
        }
        if (v.documentType === "other" && v.identityNote === "") {
          ctx.addIssue({
            code: "custom",
            path: ["identityNote"],
            message: "Say in the note which document you checked",
          });
        }
      }),
    role: "admin",
  },
  async ({ drawId, status, note, proofOfDelivery, identityCheckDue, documentType, documentLastFour, identityNote }) => {
    const saved = await adminUpdatePrizeFulfilment({
      drawId,
      status,
      note: note === "" ? null : note,
      proofOfDelivery: proofOfDelivery === "" ? null : proofOfDelivery,
      identityCheck:
        status === "verified" && identityCheckDue && documentType !== ""
          ? { documentType, documentLastFour, note: identityNote === "" ? null : identityNote }
          : null,
    });
    revalidatePath("/admin/competitions/winners");
    revalidateCompetitionPages(); // the winners pages show each prize's step
    return ok<PrizeFulfilment>(
      saved,
      `Saved: ${saved.competition.title} is ${PRIZE_STATUS[saved.prize_status].label.toLowerCase()}.`,
    );
  },
);
