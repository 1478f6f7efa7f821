"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getAccount, isAdmin } from "@/lib/auth/session";
import { createClient } from "@/lib/supabase/server";
import { fail, invalid, type ActionResult } from "./result";

const approveSchema = z.object({ userId: z.string().uuid("Unknown account") });
const rejectSchema = approveSchema.extend({
  reason: z.string().trim().min(3, "Give a reason of at least 3 characters").max(500, "Keep the reason under 500 characters"),
});

async function adminOrError(): Promise<string | null> {
  const account = await getAccount();
  if (!account) return "User not authenticated";
  if (!isAdmin(account)) return "Access denied: Admin privileges required";
  return null;
}

export async function approveAccount(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const denied = await adminOrError();
  if (denied) return fail(denied);
  const parsed = approveSchema.safeParse({ userId: form.get("userId") });
  if (!parsed.success) return invalid(parsed.error.issues);
  const supabase = await createClient();
  const { data, error } = await supabase.rpc("admin_approve_user", { p_user_id: parsed.data.userId });
  if (error) return fail(error.message);
  revalidatePath("/admin/approvals");
  // The account leaves the list, so the confirmation is shown by the page, not the row.
  redirect(`/admin/approvals?approved=${encodeURIComponent(String(data?.name ?? "the account"))}`);
}

export async function rejectAccount(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const denied = await adminOrError();
  if (denied) return fail(denied);
  const parsed = rejectSchema.safeParse({ userId: form.get("userId"), reason: form.get("reason") ?? "" });
  if (!parsed.success) return invalid(parsed.error.issues);
  const supabase = await createClient();
  const { data, error } = await supabase.rpc("admin_reject_user", { p_user_id: parsed.data.userId, p_reason: parsed.data.reason });
  if (error) return fail(error.message);
  revalidatePath("/admin/approvals");
  redirect(`/admin/approvals?rejected=${encodeURIComponent(String(data?.name ?? "the account"))}`);
}
