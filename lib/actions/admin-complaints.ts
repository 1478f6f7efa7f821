"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { updateAdminComplaint } from "@/lib/data/admin-complaints";
import { defineAction } from "./define-action";
import { ok } from "./result";

// The complaints queue's actions (/admin/complaints/{id}). admin_update_complaint checks the admin again,
// mails the player and audits; it refuses an answered complaint (edit_not_allowed) and an unknown one
// (complaint_not_found), whose messages the form shows.

const id = z.string().uuid("Unknown complaint").prefault("");

function refresh(complaintId: string) {
  revalidatePath("/admin/complaints");
  revalidatePath(`/admin/complaints/${complaintId}`);
}

export const acknowledgeComplaint = defineAction({ schema: z.object({ id }), role: "admin" }, async (input) => {
  const complaint = await updateAdminComplaint(input.id, "acknowledged", null);
  refresh(input.id);
  return ok(undefined, `Acknowledged ${complaint.reference}. We have e-mailed the player.`);
});

const resolveSchema = z.object({
  id,
  response: z
    .string()
    .trim()
    .min(10, "Write the final answer in 10 to 5000 characters")
    .max(5000, "Write the final answer in 10 to 5000 characters")
    .prefault(""),
});

export const resolveComplaint = defineAction({ schema: resolveSchema, role: "admin" }, async (input) => {
  const complaint = await updateAdminComplaint(input.id, "resolved", input.response);
  refresh(input.id);
  return ok(undefined, `Resolved ${complaint.reference}. We have e-mailed the player our final answer.`);
});
