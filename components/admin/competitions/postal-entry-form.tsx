"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { recordPostalEntryAction, type PostalEntryRecorded } from "@/lib/actions/admin-competitions";
import type { ActionFailure, ActionResult } from "@/lib/actions/result";

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
  const errors = result && !result.ok ? answerErrors(result) : undefined;
  const formRef = useRef<HTMLFormElement>(null);
  // A refusal about a field moves focus to the first field to fix.
  useEffect(() => {
    if (result && !result.ok) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [result]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  }

  return (
    <form
      key={generation}
      ref={formRef}
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
      {result?.ok ? (
        <Alert variant="success">{result.message}</Alert>
      ) : result && !errors ? (
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

/** The refusal's messages by field; the database's verdict on the answer is shown beside the answer. */
function answerErrors(result: ActionFailure): Record<string, string[]> | undefined {
  if (result.fieldErrors) return result.fieldErrors;
  if (result.code === "answer_incorrect" || result.code === "answer_required") return { answer: [result.error] };
  return undefined;
}
