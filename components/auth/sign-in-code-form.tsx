"use client";

import { CodeField } from "@/components/forms/code-field";
import { EmailField } from "@/components/forms/email-field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { signInWithCode } from "@/lib/actions/auth";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { EMAIL_CODE_LENGTH } from "@/lib/validation/email-code";

/** The 8-digit code from a sign-in e-mail, with the address it went to (filled in when this browser asked for it). */
export function SignInCodeForm({ next, email }: { next?: string; email?: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(signInWithCode);
  return (
    <form {...form} className="flex flex-col gap-4">
      {next && <input type="hidden" name="next" value={next} />}
      <EmailField errors={errors?.email} defaultValue={email} />
      <CodeField
        label={`${EMAIL_CODE_LENGTH}-digit code`}
        hint="From the sign-in e-mail."
        errors={errors?.code}
        digits={EMAIL_CODE_LENGTH}
      />
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
    </form>
  );
}
