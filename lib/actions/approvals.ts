"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { APPROVAL_MODES } from "@/lib/data/admin-users-options";
import { approveUser, approveUsers, rejectUser, setApprovalMode } from "@/lib/data/approvals";
import { defineAction } from "./define-action";
import { ok } from "./result";

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

// Bulk approval: the ticked accounts (a single tick arrives as one value, several as a list).
const bulkSchema = z.object({
  userIds: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.string().uuid("Unknown account")).min(1, "Tick at least one account to approve").max(200),
  ),
});

export const approveAccounts = defineAction({ schema: bulkSchema, role: "admin" }, async ({ userIds }) => {
  const result = await approveUsers(userIds);
  revalidatePath("/admin/approvals");
  redirect(`/admin/approvals?bulk=${result.approved.length}&skipped=${result.skipped}`);
});

const modeSchema = z.object({ mode: z.enum(APPROVAL_MODES, { error: "Choose manual or automatic approval" }) });

export const changeApprovalMode = defineAction({ schema: modeSchema, role: "admin" }, async ({ mode }) => {
  await setApprovalMode(mode);
  revalidatePath("/admin/approvals");
  return ok(
    undefined,
    mode === "auto"
      ? "New sign-ups are now approved automatically. Accounts already waiting still need approving."
      : "New sign-ups now wait for an admin to approve them.",
  );
});
