"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { acknowledgeAlert, resolvePayment, retryMail } from "@/lib/data/operations";
import { defineAction } from "./define-action";
import { ok } from "./result";

// The System page's actions: super admins only, here and again in SQL, each audited there.

const idField = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, "Unknown item")
  .transform(Number);

export const retryMailAction = defineAction(
  { schema: z.object({ mailId: idField }), role: "super_admin" },
  async ({ mailId }) => {
    await retryMail(mailId);
    revalidatePath("/admin/system");
    return ok(undefined, "Queued again: the next mail run sends it.");
  },
);

export const acknowledgeAlertAction = defineAction(
  { schema: z.object({ alertId: idField }), role: "super_admin" },
  async ({ alertId }) => {
    await acknowledgeAlert(alertId);
    revalidatePath("/admin", "layout");
    return ok(undefined, "Alert acknowledged.");
  },
);

export const resolvePaymentAction = defineAction(
  {
    schema: z.object({
      kind: z.enum(ENUM_VALUES.payment_issue, { error: "Unknown payment" }),
      reference: z.string().min(1, "Unknown payment").max(255),
      note: z
        .string()
        .trim()
        .min(3, "Say what was done, in at least 3 characters")
        .max(2000, "Keep the note under 2000 characters")
        .prefault(""),
    }),
    role: "super_admin",
  },
  async ({ kind, reference, note }) => {
    await resolvePayment(kind, reference, note);
    revalidatePath("/admin", "layout");
    return ok(undefined, "Recorded as dealt with.");
  },
);
