"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { recordPostalEntryAction } from "@/lib/actions/admin-competitions";

/**
 * Records a free postal entry from a letter: name, address with a UK postcode, the account e-mail if the letter
 * gives one, and the answer. A recorded entry clears the form and shows the ticket numbers it was given; a
 * refused one keeps what was typed.
 */
export function PostalEntryForm({
  competitionId,
  question,
  options,
}: {
  competitionId: string;
  question: string | null;
  options: string[] | null;
}) {
  // SQL's verdict on the answer is shown beside the answer; a recorded entry clears the form.
  const { result, errors, formErrors, pending, form } = useFormAction(recordPostalEntryAction, {
    fieldFor: { answer_incorrect: "answer", answer_required: "answer" },
    clearOnSuccess: true,
  });

  return (
    <form {...form} className="flex flex-col gap-4" aria-label="Record a postal entry">
      <input type="hidden" name="competitionId" value={competitionId} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="field-postal-name" label="Entrant's name" errors={errors?.name}>
          {(control) => <Input {...control} name="name" autoComplete="off" />}
        </Field>
        <Field
          id="field-postal-email"
          label="Account e-mail (optional)"
          hint="If the letter gives one: the entry counts towards that account and it gets a receipt."
          errors={errors?.email}
        >
          {(control) => <Input {...control} name="email" type="email" autoComplete="off" />}
        </Field>
      </div>
      <Field
        id="field-postal-address"
        label="Postal address"
        hint="As written on the letter, with the UK postcode."
        errors={errors?.address}
      >
        {(control) => <Textarea {...control} name="address" rows={3} autoComplete="off" />}
      </Field>
      {question ? (
        <Field
          id="field-postal-answer"
          label={`Answer to: ${question}`}
          hint="The answer the letter gives, from the published choices."
          errors={errors?.answer}
        >
          {(control) => (
            <Select {...control} name="answer" defaultValue="">
              <option value="">Choose the answer</option>
              {(options ?? []).map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </Select>
          )}
        </Field>
      ) : null}
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Recording…">
        Record postal entry
      </FormFooter>
    </form>
  );
}
