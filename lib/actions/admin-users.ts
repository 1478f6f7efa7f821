"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { removeSecondFactors } from "@/lib/auth/factors";
import {
  adjustCredit,
  deleteUser,
  KYC_STATUSES,
  recordTwoStepReset,
  setUserRole,
  updateUser,
  USER_ROLES,
} from "@/lib/data/admin-users";
import { formatGBP } from "@/lib/format";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";
import { log } from "@/lib/observability/log";

// The edit screen's actions (/admin/users/{id}/edit). Each is guarded by its role here and again in
// SQL, which also refuses an admin's own credit or role and large adjustments by plain admins.

const userId = z.string().uuid("Unknown account");

const editSchema = z.object({
  userId,
  name: z.string().trim().min(1, "Enter a name").max(100, "Keep the name to 100 characters or fewer").prefault(""),
  approval: z.enum(["approved", "pending"], { error: "Choose approved or pending" }),
  kyc: z.enum(KYC_STATUSES, { error: "Choose a KYC status" }),
});

export const updateUserDetails = defineAction({ schema: editSchema, role: "admin" }, async (input) => {
  const result = await updateUser(input.userId, input);
  revalidatePath(`/admin/users/${input.userId}`);
  const changed = Object.keys(result.changes).length;
  return ok(undefined, changed ? "Saved. The change is in the activity log." : "Nothing changed.");
});

const roleSchema = z.object({ userId, role: z.enum(USER_ROLES, { error: "Choose a role" }) });

export const changeUserRole = defineAction({ schema: roleSchema, role: "super_admin" }, async ({ userId, role }) => {
  const user = await setUserRole(userId, role);
  revalidatePath(`/admin/users/${userId}`);
  return ok(
    undefined,
    `${user.name} is now ${role === "super_admin" ? "a super admin" : role === "admin" ? "an admin" : "a player"}.`,
  );
});

// Pounds and pence as typed, with a sign: "+" or nothing adds, "-" takes. The SQL does the sums.
const adjustSchema = z.object({
  userId,
  amount: z
    .string()
    .trim()
    .regex(/^[+-]?\d{1,6}(\.\d{1,2})?$/, "Enter an amount in pounds and pence, such as 10 or -2.50")
    .refine((value) => Number(value) !== 0, "Enter an amount other than zero")
    .refine((value) => Math.abs(Number(value)) <= 100000, "Adjust by at most £100,000 at once")
    .prefault(""),
  reason: z
    .string()
    .trim()
    .min(3, "Give a reason for the adjustment (at least 3 characters)")
    .max(500, "Keep the reason to 500 characters or fewer")
    .prefault(""),
});

export const adjustUserCredit = defineAction({ schema: adjustSchema, role: "admin" }, async (input) => {
  const result = await adjustCredit(input.userId, Number(input.amount), input.reason);
  revalidatePath(`/admin/users/${input.userId}`);
  return ok(undefined, `Adjusted. The balance is now ${formatGBP(result.balance)}.`);
});

const deleteSchema = z.object({ userId });

export const deleteUserAccount = defineAction({ schema: deleteSchema, role: "super_admin" }, async ({ userId }) => {
  await deleteUser(userId);
  revalidatePath("/admin/users");
  redirect(`/admin/users/${userId}?deleted=1`);
});

/**
 * Removes the authenticator of someone who lost it. SQL first: it decides who may and audits it;
 * then the auth server removes the factors. If that second step fails the form says so, and trying
 * again is safe (a second audit line, nothing else).
 */
export const resetTwoStepAction = defineAction({ schema: deleteSchema, role: "super_admin" }, async ({ userId }) => {
  await recordTwoStepReset(userId);
  try {
    await removeSecondFactors(userId);
  } catch (e) {
    log("error", "second_factors_not_removed", { user_id: userId, error: e });
    return fail("The auth server did not remove the authenticator. Please try again.");
  }
  // The card redraws showing it off, which is the confirmation.
  revalidatePath(`/admin/users/${userId}/edit`);
  return ok(undefined);
});
