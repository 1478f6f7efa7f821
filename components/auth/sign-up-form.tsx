"use client";

import Link from "next/link";
import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { signUp } from "@/lib/actions/auth";
import { MARKETING_CONSENT_WORDING } from "@/lib/validation/auth";

export function SignUpForm() {
  const [result, action] = useActionState(signUp, null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  if (result?.ok) return <FormStatus result={result} />;
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <Field id="field-name" label="Full name" errors={errors?.name}>
        {(control) => <Input {...control} name="name" autoComplete="name" required />}
      </Field>
      <Field id="field-email" label="E-mail" errors={errors?.email}>
        {(control) => <Input {...control} name="email" type="email" autoComplete="email" required />}
      </Field>
      <Field
        id="field-password"
        label="Password"
        hint="At least 8 characters, with upper- and lower-case letters and a digit."
        errors={errors?.password}
      >
        {(control) => <PasswordInput {...control} name="password" autoComplete="new-password" required />}
      </Field>
      <Field
        id="field-dateOfBirth"
        label="Date of birth"
        hint="You must be 18 or over to take part."
        errors={errors?.dateOfBirth}
      >
        {(control) => <Input {...control} name="dateOfBirth" type="date" autoComplete="bday" required />}
      </Field>
      <div className="flex items-start gap-2">
        <input
          id="terms"
          name="terms"
          type="checkbox"
          className="mt-1 size-4 accent-primary"
          aria-invalid={errors?.terms ? true : undefined}
        />
        <label htmlFor="terms" className="text-sm">
          I am 18 or over, live in the UK and accept the{" "}
          <Link href="/docs/legal/terms-and-conditions" className="underline">
            terms and conditions
          </Link>
          .
        </label>
      </div>
      <div className="flex items-start gap-2">
        {/* Unticked unless the visitor ticks it (PECR, code of practice 1.11); they can change it on their profile. */}
        <input
          id="marketingConsent"
          name="marketingConsent"
          type="checkbox"
          className="mt-1 size-4 accent-primary"
          aria-describedby="marketingConsent-hint"
        />
        <div className="flex flex-col gap-0.5">
          <label htmlFor="marketingConsent" className="text-sm">
            {MARKETING_CONSENT_WORDING}
          </label>
          <p id="marketingConsent-hint" className="text-xs text-muted-foreground">
            Optional. Stop any time from your profile or the link in every such e-mail.
          </p>
        </div>
      </div>
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Creating your account…">Create account</SubmitButton>
    </form>
  );
}
