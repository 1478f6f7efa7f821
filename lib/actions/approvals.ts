"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { approveUser, rejectUser } from "@/lib/data/admin";
import { defineAction } from "./define-action";

const approveSchema = z.object({ userId: z.string().uuid("Unknown account") });
const rejectSchema = approveSchema.extend({
  reason: z
    .string()
    .trim()
    .min(3, "Give a reason of at least 3 characters")
    .max(500, "Keep the reason under 500 characters")
    .prefault(""),
});

// The account leaves the list, so the confirmation is shown by the page, not the row.
export const approveAccount = defineAction({ schema: approveSchema, role: "admin" }, async ({ userId }) => {
  const account = await approveUser(userId);
  revalidatePath("/admin/approvals");
  redirect(`/admin/approvals?approved=${encodeURIComponent(account.name)}`);
});

export const rejectAccount = defineAction({ schema: rejectSchema, role: "admin" }, async ({ userId, reason }) => {
  const account = await rejectUser(userId, reason);
  revalidatePath("/admin/approvals");
  redirect(`/admin/approvals?rejected=${encodeURIComponent(account.name)}`);
});
