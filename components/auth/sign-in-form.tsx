"use client";

import { Link } from "@/components/ui/link";
import { EmailField } from "@/components/forms/email-field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { PasswordInput } from "@/components/ui/password-input";
import { signIn } from "@/lib/actions/auth";

export function SignInForm({ next }: { next?: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(signIn);
  return (
    <form {...form} className="flex flex-col gap-4">
      {next && <input type="hidden" name="next" value={next} />}
      <EmailField errors={errors?.email} />
      <Field id="field-password" label="Password" errors={errors?.password}>
        {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" required />}
      </Field>
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
      <p className="text-sm">
        <Link href="/auth/reset-password" className="underline">
          Forgotten your password?
        </Link>
      </p>
    </form>
  );
}
