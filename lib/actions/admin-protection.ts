"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { INTERVENTION_KINDS, recordIntervention, reviewPlayerFlag } from "@/lib/data/admin-protection";
import { formCheckbox } from "./action";
import { defineAction } from "./define-action";
import { ok } from "./result";
import { LABELS } from "@/lib/labels";

// The player-protection actions (/admin/protection, /admin/users/{id}). SQL checks the admin again, applies a
// restriction or closure, refuses one's own account and audits every review and intervention.

const note = z
  .string()
  .trim()
  .min(3, "Write a note of 3 to 2000 characters")
  .max(2000, "Write a note of 3 to 2000 characters")
  .prefault("");

const reviewSchema = z.object({
  flagId: z.string().uuid("Unknown flag"),
  note,
  // An empty choice means "no intervention".
  intervention: z.preprocess(
    (value) => (value === "" || value === undefined ? null : value),
    z.enum(["note", "contacted", "restricted"], { error: "Choose an intervention, or none" }).nullable(),
  ),
});

export const reviewFlag = defineAction({ schema: reviewSchema, role: "admin" }, async (input) => {
  const flag = await reviewPlayerFlag(input.flagId, input.note, input.intervention);
  revalidatePath("/admin/protection");
  revalidatePath(`/admin/users/${flag.user.id}`);
  return ok(
    undefined,
    `Reviewed the flag on ${flag.user.name}${input.intervention ? ` (${LABELS.intervention_kind[input.intervention].toLowerCase()})` : ""}.`,
  );
});

const interventionSchema = z
  .object({
    userId: z.string().uuid("Unknown account"),
    kind: z.enum(INTERVENTION_KINDS, { error: "Choose what was done" }),
    note,
    // Closing is permanent, so it needs a tick as well as the choice.
    confirmClose: formCheckbox,
  })
  .refine((form) => form.kind !== "closed" || form.confirmClose, {
    path: ["confirmClose"],
    message: "Tick to confirm: closing the account cannot be undone",
  });

export const recordPlayerIntervention = defineAction({ schema: interventionSchema, role: "admin" }, async (input) => {
  await recordIntervention(input.userId, input.kind, input.note);
  revalidatePath(`/admin/users/${input.userId}`);
  revalidatePath("/admin/protection");
  return ok(undefined, `Recorded: ${LABELS.intervention_kind[input.kind].toLowerCase()}. It is in the activity log.`);
});
