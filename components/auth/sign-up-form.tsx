"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Field } from "@/components/forms/field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { signUp } from "@/lib/actions/auth";

export function SignUpForm() {
  const [result, action] = useActionState(signUp, null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  if (result?.ok) return <FormStatus result={result} />;
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <Field label="Full name" name="name" autoComplete="name" required errors={errors?.name} />
      <Field label="E-mail" name="email" type="email" autoComplete="email" required errors={errors?.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters, with upper- and lower-case letters and a digit."
        errors={errors?.password}
      />
      <Field
        label="Date of birth"
        name="dateOfBirth"
        type="date"
        autoComplete="bday"
        required
        hint="You must be 18 or over to take part."
        errors={errors?.dateOfBirth}
      />
      <div className="flex items-start gap-2">
        <input id="terms" name="terms" type="checkbox" className="mt-1 size-4 accent-green-700" aria-invalid={errors?.terms ? true : undefined} />
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
