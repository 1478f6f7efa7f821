"use client";

import { useActionState, useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { requestPasswordReset } from "@/lib/actions/auth";
import type { ActionResult } from "@/lib/actions/result";

export function RequestResetForm() {
  const [result, action] = useActionState(requestPasswordReset, null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <Field id="field-email" label="E-mail" errors={errors?.email}>
        {(control) => <Input {...control} name="email" type="email" autoComplete="email" required />}
      </Field>
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Sending…">Send reset link</SubmitButton>
    </form>
  );
}

/**
 * Calls POST /api/auth/update-password (spec §7) and shows its error text (spec §8). Signed in
 * with a password (the profile), the current password is asked for too; after a recovery link
 * (the reset page) it is not.
 */
export function NewPasswordForm({
  submitLabel = "Change password",
  askCurrentPassword = false,
}: {
  submitLabel?: string;
  askCurrentPassword?: boolean;
}) {
  const [result, setResult] = useState<ActionResult | null>(null);

  async function submit(form: FormData) {
    try {
      const response = await fetch("/api/auth/update-password", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          newPassword: String(form.get("newPassword") ?? ""),
          ...(askCurrentPassword ? { currentPassword: String(form.get("currentPassword") ?? "") } : {}),
        }),
      });
      const body = (await response.json().catch(() => ({}))) as { statusMessage?: string; message?: string };
      setResult(
        response.ok
          ? { ok: true, data: undefined, message: "Your password has been changed." }
          : { ok: false, error: body.statusMessage ?? body.message ?? "Failed to update password" },
      );
    } catch (error) {
      setResult({ ok: false, error: error instanceof Error ? error.message : "Failed to update password" });
    }
  }

  return (
    <form action={submit} className="flex flex-col gap-4" noValidate>
      {askCurrentPassword && (
        <Field id="field-currentPassword" label="Current password">
          {(control) => <PasswordInput {...control} name="currentPassword" autoComplete="current-password" required />}
        </Field>
      )}
      <Field
        id="field-newPassword"
        label="New password"
        hint="At least 8 characters, with upper- and lower-case letters and a digit."
      >
        {(control) => <PasswordInput {...control} name="newPassword" autoComplete="new-password" required />}
      </Field>
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
    </form>
  );
}
