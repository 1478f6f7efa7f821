"use client";

import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { ActionHandler } from "@/lib/actions/action";
import type { ActionFailure } from "@/lib/actions/result";
import { COMPETITION_LIMITS, OPTION_SLOTS } from "./competition-fields";
import { ImageUpload } from "./image-upload";

/** The form's starting values, as the inputs hold them (text; dates as UK datetime-local). */
export type CompetitionFormValues = {
  title: string;
  slug: string;
  summary: string;
  description: string;
  prize_description: string;
  prize_value: string;
  cash_alternative: string;
  images: string;
  ticket_price: string;
  total_tickets: string;
  max_tickets_per_user: string;
  opens_at: string;
  closes_at: string;
  postal_deadline: string;
  draw_at: string;
  skill_question: string;
  skill_options: string[];
  /** The index of the correct option, or "" for none. */
  skill_answer: string;
};

export const EMPTY_COMPETITION: CompetitionFormValues = {
  title: "",
  slug: "",
  summary: "",
  description: "",
  prize_description: "",
  prize_value: "",
  cash_alternative: "",
  images: "",
  ticket_price: "",
  total_tickets: "",
  max_tickets_per_user: "",
  opens_at: "",
  closes_at: "",
  postal_deadline: "",
  draw_at: "",
  skill_question: "",
  skill_options: [],
  skill_answer: "",
};

export type LockableField = Exclude<keyof CompetitionFormValues, "skill_options" | "skill_answer">;

/**
 * The competition form, for a new draft or an edit. Fields the competition's state does not let change are
 * disabled (and so not sent). The submission is dispatched from onSubmit, so a refused one keeps what was
 * typed (a form action would reset the fields).
 */
export function CompetitionForm({
  action,
  values,
  competitionId,
  locked = [],
  hints = {},
  label,
  submitLabel,
  pendingLabel,
}: {
  /** The form's accessible name ("New competition", "Edit competition"). */
  label: string;
  action: ActionHandler<undefined>;
  values: CompetitionFormValues;
  competitionId?: string;
  locked?: LockableField[];
  hints?: Partial<Record<LockableField, ReactNode>>;
  submitLabel: string;
  pendingLabel: string;
}) {
  const [result, dispatch, pending] = useActionState(action, null);
  // While a picture uploads, saving would leave it out: the button waits for it.
  const [uploading, setUploading] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = result && !result.ok ? fieldErrorsOf(result) : undefined;
  const errorCount = errors ? Object.keys(errors).length : 0;

  // After a refusal, focus goes to the first field to fix (in the form's order), or to the summary.
  useEffect(() => {
    if (!result || result.ok || !formRef.current) return;
    const form = formRef.current;
    const wrong = fieldErrorsOf(result) ?? {};
    const first = Array.from(form.elements).find(
      (el): el is HTMLInputElement =>
        el instanceof HTMLElement &&
        "name" in el &&
        typeof el.name === "string" &&
        el.name in wrong &&
        (el as HTMLInputElement).type !== "hidden" &&
        !(el as HTMLInputElement).disabled,
    );
    (first ?? form.querySelector<HTMLElement>("[data-form-summary]"))?.focus();
  }, [result]);
  const isLocked = (field: LockableField) => locked.includes(field);
  const questionLocked = isLocked("skill_question");

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  }

  const text = (
    field: LockableField,
    label: string,
    hint?: ReactNode,
    props: React.ComponentProps<typeof Input> = {},
  ) => (
    <Field id={`field-${field}`} label={label} hint={hints[field] ?? hint} errors={errors?.[field]}>
      {(control) => (
        <Input {...control} {...props} name={field} defaultValue={values[field]} disabled={isLocked(field)} />
      )}
    </Field>
  );

  const options = Array.from({ length: OPTION_SLOTS }, (_, i) => values.skill_options[i] ?? "");

  return (
    <form ref={formRef} onSubmit={onSubmit} className="flex flex-col gap-8" noValidate aria-label={label}>
      {competitionId ? <input type="hidden" name="id" value={competitionId} /> : null}

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">Wording</legend>
        {text("title", "Title", `${COMPETITION_LIMITS.title.min} to ${COMPETITION_LIMITS.title.max} characters.`)}
        {text(
          "slug",
          "Address (slug)",
          "Lower-case letters, digits and hyphens: /competitions/your-slug. Empty: made from the title.",
          { autoComplete: "off" },
        )}
        {text("summary", "Summary", "One line for the competition cards, up to 300 characters.")}
        <Field
          id="field-description"
          label="Description"
          hint={hints.description ?? "Up to 5,000 characters."}
          errors={errors?.description}
        >
          {(control) => (
            <Textarea
              {...control}
              name="description"
              rows={5}
              defaultValue={values.description}
              disabled={isLocked("description")}
            />
          )}
        </Field>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">Prize</legend>
        <Field
          id="field-prize_description"
          label="Prize description"
          hint={hints.prize_description ?? "What the winner gets, up to 2,000 characters."}
          errors={errors?.prize_description}
        >
          {(control) => (
            <Textarea
              {...control}
              name="prize_description"
              rows={3}
              defaultValue={values.prize_description}
              disabled={isLocked("prize_description")}
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          {text("prize_value", "Prize value (£)", "In pounds, e.g. 1200 or 1199.99.", { inputMode: "decimal" })}
          {text("cash_alternative", "Cash alternative (£, optional)", "The cash the winner may take instead.", {
            inputMode: "decimal",
          })}
        </div>
        <ImageUpload
          name="images"
          initial={values.images.split("\n").filter(Boolean)}
          max={COMPETITION_LIMITS.images.max}
          disabled={isLocked("images")}
          errors={errors?.images}
          hint={
            hints.images ??
            "JPEG, PNG or WebP, up to 10. Each is shrunk to 1600 pixels on its longest side before it is sent; the first is the one on the competition's card."
          }
          onBusyChange={setUploading}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">Tickets</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          {text("ticket_price", "Ticket price (£)", "At least £0.25.", { inputMode: "decimal" })}
          {text("total_tickets", "Total tickets", "Sold online, 1 to 1,000,000.", { inputMode: "numeric" })}
          {text("max_tickets_per_user", "Tickets per person", "Online and postal together.", {
            inputMode: "numeric",
          })}
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">Dates (UK time)</legend>
        <p className="text-sm text-muted-foreground">
          Fixed when the competition is published: they can never change afterwards.
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          {text("opens_at", "Opens at", "Empty: as soon as it is published.", { type: "datetime-local" })}
          {text("closes_at", "Closes at", "Online sales end (or at a sell-out).", { type: "datetime-local" })}
          {text(
            "postal_deadline",
            "Postal deadline (optional)",
            "Empty: 2 working days after the close (bank holidays skipped).",
            { type: "datetime-local" },
          )}
          {text("draw_at", "Draw time (optional)", "Empty: at the postal deadline.", { type: "datetime-local" })}
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">Skill question</legend>
        {text(
          "skill_question",
          "Question (optional)",
          "Empty: no question. With a question, give 2 to 6 answers and choose the correct one.",
        )}
        <fieldset
          className="flex flex-col gap-3"
          aria-describedby={errors?.skill_answer || errors?.skill_options ? "skill-answers-error" : undefined}
        >
          <legend className="text-sm font-medium">Answers to choose from (mark the correct one)</legend>
          {options.map((option, i) => (
            <div key={i} className="flex items-end gap-3">
              <Field id={`field-skill-option-${i}`} label={`Answer ${i + 1}`} className="flex-1">
                {(control) => (
                  <Input
                    {...control}
                    name="skill_options"
                    defaultValue={option}
                    disabled={questionLocked}
                    aria-invalid={errors?.skill_options ? true : undefined}
                  />
                )}
              </Field>
              <label className="mb-2.5 flex items-center gap-2 text-sm whitespace-nowrap">
                <input
                  type="radio"
                  name="skill_answer"
                  value={String(i)}
                  defaultChecked={values.skill_answer === String(i)}
                  disabled={questionLocked}
                  className="size-4 accent-primary"
                />
                Answer {i + 1} is correct
              </label>
            </div>
          ))}
          {errors?.skill_options || errors?.skill_answer ? (
            <p id="skill-answers-error" className="text-sm text-destructive">
              {[...(errors.skill_options ?? []), ...(errors.skill_answer ?? [])].join(" ")}
            </p>
          ) : null}
        </fieldset>
      </fieldset>

      <div className="flex flex-col gap-3" data-form-summary tabIndex={-1}>
        {errorCount > 0 ? (
          <Alert variant="destructive">
            {errorCount === 1
              ? "1 field needs changing: see the message beside it."
              : `${errorCount} fields need changing: see the messages beside them.`}
          </Alert>
        ) : (
          <FormStatus result={result} />
        )}
        <div>
          <Button type="submit" disabled={pending || uploading} aria-disabled={pending || uploading}>
            {pending ? pendingLabel : uploading ? "Waiting for the upload…" : submitLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}

/**
 * The refusal's messages by field: zod's, and a database refusal that belongs to one field (a taken address)
 * shown beside that field like the others.
 */
function fieldErrorsOf(result: ActionFailure): Record<string, string[]> | undefined {
  if (result.fieldErrors) return result.fieldErrors;
  if (result.code === "slug_taken") return { slug: [result.error] };
  return undefined;
}
