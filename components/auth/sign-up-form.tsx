"use client";

import Link from "next/link";
import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { signUp } from "@/lib/actions/auth";

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
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Creating your account…">Create account</SubmitButton>
    </form>
  );
}
