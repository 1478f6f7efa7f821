"use client";

import { CaptchaCheck, needsCaptcha } from "@/components/forms/captcha";
import { EmailField } from "@/components/forms/email-field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { PasswordInput } from "@/components/ui/password-input";
import { requestPasswordReset } from "@/lib/actions/auth";
import type { ActionResult } from "@/lib/actions/result";

export function RequestResetForm() {
  const { result, errors, formErrors, pending, form } = useFormAction(requestPasswordReset);
  return (
    <form {...form} className="flex flex-col gap-4">
      <EmailField errors={errors?.email} />
      {needsCaptcha(result) && <CaptchaCheck />}
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Sending…">
        Send reset link
      </SubmitButton>
    </form>
  );
}

/**
 * Calls POST /api/auth/update-password (spec §7) and shows its error text (spec §8), beside the field the
 * route names. Signed in with a password (the profile), the current password is asked for too; after a
 * recovery link (the reset page) it is not.
 */
export function NewPasswordForm({
  submitLabel = "Change password",
  askCurrentPassword = false,
}: {
  submitLabel?: string;
  askCurrentPassword?: boolean;
}) {
  async function changePassword(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
    try {
      const response = await fetch("/api/auth/update-password", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          newPassword: String(form.get("newPassword") ?? ""),
          ...(askCurrentPassword ? { currentPassword: String(form.get("currentPassword") ?? "") } : {}),
        }),
      });
      if (response.ok) return { ok: true, data: undefined, message: "Your password has been changed." };
      const body = (await response.json().catch(() => ({}))) as {
        statusMessage?: string;
        message?: string;
        field?: string;
      };
      const error = body.statusMessage ?? body.message ?? "Failed to update password";
      return { ok: false, error, ...(body.field ? { fieldErrors: { [body.field]: [error] } } : {}) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : "Failed to update password" };
    }
  }
  // A changed password is cleared from the form; a refused one stays, to be corrected.
  const { result, errors, formErrors, pending, form } = useFormAction(changePassword, { clearOnSuccess: true });

  return (
    <form {...form} className="flex flex-col gap-4">
      {askCurrentPassword && (
        <Field id="field-currentPassword" label="Current password" errors={errors?.currentPassword}>
          {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" required />}
        </Field>
      )}
      <Field
        id="field-newPassword"
        label="New password"
        hint="At least 8 characters, with upper- and lower-case letters and a digit."
        errors={errors?.newPassword}
      >
        {(control) => <PasswordInput {...control} name="newPassword" autoComplete="new-password" required />}
      </Field>
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
