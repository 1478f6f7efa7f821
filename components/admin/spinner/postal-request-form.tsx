"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { recordPostalRequest } from "@/lib/actions/admin-spinner";

/**
 * Records a postal request for a spin: the player's account e-mail (as on the letter) and a reference. A recorded
 * request clears the form; a refused one keeps what was typed.
 */
export function PostalRequestForm() {
  const { result, errors, formErrors, pending, form } = useFormAction(recordPostalRequest, { clearOnSuccess: true });

  return (
    <form {...form} aria-label="Record a postal request" className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="spin-request-email"
          label="Player's account e-mail"
          hint="As the letter gives it: the spin credit goes to the account with this e-mail."
          errors={errors?.email}
        >
          {(control) => <Input {...control} name="email" type="email" autoComplete="off" />}
        </Field>
        <Field
          id="spin-request-reference"
          label="Reference"
          hint="How you file the letter, such as the date it arrived (1 to 100 characters)."
          errors={errors?.reference}
        >
          {(control) => <Input {...control} name="reference" autoComplete="off" />}
        </Field>
      </div>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Recording…">
        Record postal request
      </FormFooter>
    </form>
  );
}
