"use client";

import { useState, type FormEvent } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { recordCharityDonationAction } from "@/lib/actions/admin-charities";
import { CHOOSE_PROOF, isProofType, MAX_PROOF_BYTES, PROOF_ACCEPT, PROOF_TOO_LARGE } from "@/lib/charities/proofs";
import { useFormAction } from "@/lib/hooks/use-form-action";

/** A file the browser can tell is wrong before it is sent; the server reads its bytes again. */
function proofProblem(file: File | undefined): string | null {
  if (!file) return null;
  // Some systems give a PDF no type, or another: those are left to the server, which reads the bytes.
  if (file.type.startsWith("image/") && !isProofType(file.type)) return CHOOSE_PROOF;
  if (file.size > MAX_PROOF_BYTES) return PROOF_TOO_LARGE;
  return null;
}

/**
 * Records a payment made to a drawn competition's charity: the amount, the day it was made, the payment reference
 * and its proof (the charity's receipt or acknowledgement, a bank statement), sent as it is with the form. A
 * recorded donation clears the form and is published at once with its proof; a refused one keeps what was typed.
 */
export function CharityDonationForm({
  competitionId,
  firstDay,
  today,
}: {
  competitionId: string;
  /** The London day the competition was published: no donation for it is dated earlier. */
  firstDay: string;
  /** Today in London, the date the form starts with. */
  today: string;
}) {
  const { result, errors, formErrors, pending, form } = useFormAction(recordCharityDonationAction, {
    clearOnSuccess: true,
  });
  const [problem, setProblem] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (problem) {
      // Too large to send at all (the server takes 6 MB at most): the message beside the file says so.
      event.preventDefault();
      event.currentTarget.querySelector<HTMLInputElement>('input[name="proof"]')?.focus();
      return;
    }
    form.onSubmit(event);
  }

  return (
    <form {...form} onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Record a donation">
      <input type="hidden" name="competitionId" value={competitionId} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          id="field-donation-amount"
          label="Amount (£)"
          hint="As paid, e.g. 250 or 249.99."
          errors={errors?.amount}
        >
          {(control) => <Input {...control} name="amount" inputMode="decimal" autoComplete="off" />}
        </Field>
        <Field
          id="field-donation-date"
          label="Date of the donation"
          hint="The day it was paid, from the publication to today."
          errors={errors?.donated_on}
        >
          {(control) => (
            <Input {...control} name="donated_on" type="date" min={firstDay} max={today} defaultValue={today} />
          )}
        </Field>
        <Field
          id="field-donation-reference"
          label="Payment reference"
          hint="The bank's or the charity's, up to 100 characters."
          errors={errors?.reference}
        >
          {(control) => <Input {...control} name="reference" maxLength={100} autoComplete="off" />}
        </Field>
      </div>
      <Field
        id="field-donation-proof"
        label="Proof of the donation"
        hint="The charity's receipt or acknowledgement, or a bank statement: a PDF or a JPEG, PNG or WebP image, up to 5 MB. It is published with the donation."
        errors={problem ? [problem] : errors?.proof}
      >
        {(control) => (
          <Input
            {...control}
            name="proof"
            type="file"
            accept={PROOF_ACCEPT}
            onChange={(event) => setProblem(proofProblem(event.target.files?.[0]))}
            className="file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-1 file:text-sm file:font-medium"
          />
        )}
      </Field>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Recording…">
        Record donation
      </FormFooter>
    </form>
  );
}
