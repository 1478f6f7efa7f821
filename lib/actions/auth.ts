"use server";

import { isAuthWeakPasswordError } from "@supabase/supabase-js";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/auth/paths";
import { getAccount } from "@/lib/auth/session";
import { createClient } from "@/lib/supabase/server";
import { siteUrl } from "@/lib/site-url";
import {
  MISSING_CREDENTIALS,
  UNDER_18,
  profileSchema,
  resetRequestSchema,
  signInSchema,
  signUpSchema,
} from "@/lib/validation/auth";
import { fail, invalid, type ActionResult } from "./result";

export async function signIn(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  if (!email.trim() || !password) return fail(MISSING_CREDENTIALS);
  const parsed = signInSchema.safeParse({ email, password, next: form.get("next") ?? undefined });
  if (!parsed.success) return invalid(parsed.error.issues);

  const supabase = await createClient();
  const { error } = await supabase.auth.signInWithPassword({ email: parsed.data.email, password });
  if (error) {
    if (error.code === "invalid_credentials") return fail("That e-mail and password do not match an account.");
    if (error.code === "email_not_confirmed") return fail("Please confirm your e-mail address first: check your inbox.");
    return fail(error.message);
  }
  redirect(safeNextPath(parsed.data.next));
}

export async function signUp(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const parsed = signUpSchema.safeParse({
    name: form.get("name") ?? "",
    email: form.get("email") ?? "",
    password: form.get("password") ?? "",
    dateOfBirth: form.get("dateOfBirth") ?? "",
    terms: form.get("terms") ?? undefined,
  });
  if (!parsed.success) return invalid(parsed.error.issues);
  const { name, email, password, dateOfBirth } = parsed.data;

  const supabase = await createClient();
  const { data, error } = await supabase.auth.signUp({
    email,
    password,
    options: {
      data: { name, date_of_birth: dateOfBirth },
      emailRedirectTo: `${await siteUrl()}/auth/confirm`,
    },
  });
  if (error) {
    if (isAuthWeakPasswordError(error)) return fail("Please choose a stronger password.", { reasons: error.reasons });
    if (error.code === "user_already_exists") return fail("An account with that e-mail already exists. Sign in instead.");
    if (/18 or over/.test(error.message)) return fail(UNDER_18);
    return fail(error.message);
  }
  if (!data.session) {
    return { ok: true, data: undefined, message: `We have sent a confirmation link to ${email}. Open it to finish signing up.` };
  }
  redirect("/pending-approval");
}

export async function requestPasswordReset(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const parsed = resetRequestSchema.safeParse({ email: form.get("email") ?? "" });
  if (!parsed.success) return invalid(parsed.error.issues);
  const supabase = await createClient();
  const { error } = await supabase.auth.resetPasswordForEmail(parsed.data.email, {
    redirectTo: `${await siteUrl()}/auth/reset-password`,
  });
  // Same answer whether or not the account exists, so the form cannot be used to probe for accounts.
  if (error && error.status !== 404 && error.code !== "user_not_found") return fail(error.message);
  return { ok: true, data: undefined, message: "If an account exists for that e-mail, a reset link is on its way." };
}

export async function updateProfile(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const account = await getAccount();
  if (!account) return fail("User not authenticated");
  const parsed = profileSchema.safeParse({
    name: form.get("name") ?? "",
    emailNotifications: form.get("emailNotifications") === "on",
    town: form.get("town") ?? "",
  });
  if (!parsed.success) return invalid(parsed.error.issues);
  const supabase = await createClient();
  const { error } = await supabase.rpc("update_my_profile", {
    p_name: parsed.data.name,
    p_email_notifications: parsed.data.emailNotifications,
    p_town: parsed.data.town, // empty clears it
  });
  if (error) return fail(error.message);
  revalidatePath("/", "layout");
  return { ok: true, data: undefined, message: "Profile saved." };
}
