"use client";

import { CaptchaCheck, needsCaptcha } from "@/components/forms/captcha";
import { Link } from "@/components/ui/link";
import { EmailField } from "@/components/forms/email-field";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { CheckboxField, Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { signUp } from "@/lib/actions/auth";
import { MARKETING_CONSENT_WORDING } from "@/lib/validation/auth";

/**
 * `referralCode`: the invite code of the link the visitor came by (?ref=), filled in for them. `next`: the page they
 * came from (?next=), which the approval leads back to.
 */
export function SignUpForm({ referralCode, next }: { referralCode?: string; next?: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(signUp, {
    fieldFor: { referral_code_unknown: "referralCode", referral_self: "referralCode" },
  });
  if (result?.ok) return <FormStatus result={result} />;
  return (
    <form {...form} className="flex flex-col gap-4">
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <Field id="field-name" label="Full name" errors={errors?.name}>
        {(control) => <Input {...control} name="name" autoComplete="name" required />}
      </Field>
      <EmailField errors={errors?.email} />
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
      <CheckboxField
        id="terms"
        name="terms"
        errors={errors?.terms}
        label={
          <>
            I am 18 or over, live in the UK and accept the{" "}
            <Link href="/docs/legal/terms-and-conditions" className="underline">
              terms and conditions
            </Link>
            .
          </>
        }
      />
      {/* Unticked unless the visitor ticks it (PECR, code of practice 1.11); they can change it on their profile. */}
      <CheckboxField
        id="marketingConsent"
        name="marketingConsent"
        label={MARKETING_CONSENT_WORDING}
        hint="Optional. Stop any time from your profile or the link in every such e-mail."
        errors={errors?.marketingConsent}
      />
      <Field
        id="field-referralCode"
        label="Invite code (optional)"
        hint="From a friend's invite link: you both get credit once you are approved and make your first paid entry."
        errors={errors?.referralCode}
      >
        {(control) => (
          <Input {...control} name="referralCode" defaultValue={referralCode} autoComplete="off" maxLength={40} />
        )}
      </Field>
      {needsCaptcha(result) && <CaptchaCheck />}
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Creating your account…">
        Create account
      </SubmitButton>
    </form>
  );
}
