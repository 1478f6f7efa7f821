"use client";

import { useState } from "react";
import { CaptchaCheck, needsCaptcha } from "@/components/forms/captcha";
import { EmailField } from "@/components/forms/email-field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Link } from "@/components/ui/link";
import { PasswordInput } from "@/components/ui/password-input";
import { signIn } from "@/lib/actions/auth";
import { signInCodePath } from "@/lib/auth/paths";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { EMAIL_CODE_LENGTH } from "@/lib/validation/email-code";

/**
 * /login's one form (docs/decisions/055): one address, then the password, or "E-mail me a sign-in link" for a link and
 * an 8-digit code instead (it reads no password, and goes on to /login/code, which keeps the address). "Sign in" comes
 * first, so Enter in either field signs in with the password.
 */
export function SignInForm({ next, labelledBy }: { next?: string; labelledBy: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(signIn);
  const [method, setMethod] = useState<"password" | "link">("password");
  return (
    <form {...form} aria-labelledby={labelledBy} className="flex flex-col gap-4">
      {next && <input type="hidden" name="next" value={next} />}
      <EmailField errors={errors?.email} />
      <Field id="field-password" label="Password" errors={errors?.password}>
        {(control) => <PasswordInput {...control} name="password" autoComplete="current-password" />}
      </Field>
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton
        pending={pending}
        pendingLabel={method === "password" ? "Signing in…" : "Sign in"}
        name="method"
        value="password"
        onClick={() => setMethod("password")}
      >
        Sign in
      </SubmitButton>
      <p className="text-sm">
        <Link href="/auth/reset-password" className="underline">
          Forgotten your password?
        </Link>
      </p>
      <h2 className="border-t pt-4 text-lg font-semibold">Or sign in without your password</h2>
      <p className="text-sm text-muted-foreground">
        We can e-mail the address above a sign-in link and an {EMAIL_CODE_LENGTH}-digit code instead: open the link, or
        type the code.
      </p>
      {needsCaptcha(result) && <CaptchaCheck />}
      <SubmitButton
        pending={pending}
        pendingLabel={method === "link" ? "Sending…" : "E-mail me a sign-in link"}
        variant="outline"
        name="method"
        value="link"
        onClick={() => setMethod("link")}
      >
        E-mail me a sign-in link
      </SubmitButton>
      <p className="text-sm">
        <Link href={signInCodePath(next)} className="underline">
          I have a code from the e-mail
        </Link>
      </p>
    </form>
  );
}
