"use client";

import { CaptchaCheck, needsCaptcha } from "@/components/forms/captcha";
import { Link } from "@/components/ui/link";
import { CodeField } from "@/components/forms/code-field";
import { EmailField } from "@/components/forms/email-field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { requestSignInLink, signInWithCode } from "@/lib/actions/auth";
import { EMAIL_CODE_LENGTH } from "@/lib/validation/auth";
import { useFormAction } from "@/lib/hooks/use-form-action";

/** Where the code is typed, keeping `next`. */
function codePath(next?: string) {
  return next ? `/login/code?next=${encodeURIComponent(next)}` : "/login/code";
}

/**
 * "E-mail me a sign-in link", beside the password form. The answer is the same whether or not an account
 * uses the address; the e-mail also carries an 8-digit code, typed on /login/code.
 */
export function SignInLinkForm({ next }: { next?: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(requestSignInLink);
  return (
    <form {...form} aria-labelledby="sign-in-link-heading" className="flex flex-col gap-4">
      <h2 id="sign-in-link-heading" className="text-lg font-semibold">
        Or sign in without your password
      </h2>
      {next && <input type="hidden" name="next" value={next} />}
      <EmailField id="field-link-email" label="E-mail address" errors={errors?.email} />
      {needsCaptcha(result) && <CaptchaCheck />}
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Sending…" variant="outline">
        E-mail me a sign-in link
      </SubmitButton>
      <p className="text-sm">
        <Link href={codePath(next)} className="underline">
          I have a code from the e-mail
        </Link>
      </p>
    </form>
  );
}

/** The 8-digit code from a sign-in e-mail, with the address it went to. */
export function SignInCodeForm({ next }: { next?: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(signInWithCode);
  return (
    <form {...form} className="flex flex-col gap-4">
      {next && <input type="hidden" name="next" value={next} />}
      <EmailField errors={errors?.email} />
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
