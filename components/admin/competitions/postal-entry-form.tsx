"use client";

import { startTransition, useActionState, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { recordPostalEntryAction, type PostalEntryRecorded } from "@/lib/actions/admin-competitions";
import type { ActionResult } from "@/lib/actions/result";

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
  const [result, dispatch, pending] = useActionState(recordPostalEntryAction, null);
  const [shown, setShown] = useState<ActionResult<PostalEntryRecorded> | null>(null);
  // A recorded entry remounts the form's fields, which clears them.
  const [generation, setGeneration] = useState(0);
  if (result !== shown) {
    setShown(result);
    if (result?.ok) setGeneration((g) => g + 1);
  }
  const errors = result && !result.ok ? result.fieldErrors : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  }

  return (
    <form
      key={generation}
      onSubmit={onSubmit}
      className="flex flex-col gap-4"
      noValidate
      aria-label="Record a postal entry"
    >
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
          hint={options?.length ? `The choices were: ${options.join(", ")}.` : undefined}
          errors={errors?.answer}
        >
          {(control) => <Input {...control} name="answer" autoComplete="off" />}
        </Field>
      ) : null}
      {result?.ok ? (
        <Alert variant="success">{result.message}</Alert>
      ) : result ? (
        <Alert variant="destructive">{result.error}</Alert>
      ) : null}
      <div>
        <Button type="submit" disabled={pending} aria-disabled={pending}>
          {pending ? "Recording…" : "Record postal entry"}
        </Button>
      </div>
    </form>
  );
}
