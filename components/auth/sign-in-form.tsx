"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Field } from "@/components/forms/field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { signIn } from "@/lib/actions/auth";

export function SignInForm({ next }: { next?: string }) {
  const [result, action] = useActionState(signIn, null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      {next && <input type="hidden" name="next" value={next} />}
      <Field label="E-mail" name="email" type="email" autoComplete="email" required errors={errors?.email} />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required errors={errors?.password} />
      <FormStatus result={result} />
      <SubmitButton pendingLabel="Signing in…">Sign in</SubmitButton>
      <p className="text-sm">
        <Link href="/auth/reset-password" className="underline">
          Forgotten your password?
        </Link>
      </p>
    </form>
  );
}
