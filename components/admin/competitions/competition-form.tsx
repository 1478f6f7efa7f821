"use client";

import { useRef, useState, type ReactNode } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input, controlClasses } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { ActionHandler } from "@/lib/actions/action";
import {
  CHARITY_TERMS,
  COMPETITION_LIMITS,
  OPTION_SLOTS,
  type CharityTerms,
} from "@/lib/competitions/competition-fields";
import { ENUM_VALUES, enumLabel } from "@/lib/labels";
import { cn } from "@/lib/utils";
import {
  FurtherPrizes,
  prizePositions,
  withoutMovedPrizes,
  type FurtherPrizeRow,
  type FurtherPrizeValues,
} from "./further-prizes";
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
  /** in_order or pick (ticket_numbering). */
  ticket_numbering: string;
  opens_at: string;
  closes_at: string;
  postal_deadline: string;
  draw_at: string;
  skill_question: string;
  skill_options: string[];
  /** The index of the correct option, or "" for none. */
  skill_answer: string;
  /** What the charity partner receives, if there is one: the fields after it are read accordingly. */
  charity_terms: CharityTerms;
  charity_name: string;
  charity_number: string;
  charity_website: string;
  /** Its share of the ticket revenue, in per cent ("12.5"), when charity_terms is share. */
  charity_revenue_percent: string;
  /** Its sum in pounds ("500.00"), when charity_terms is fixed. */
  charity_fixed_amount: string;
  /** The prizes after the first, the 2nd first. */
  prizes: FurtherPrizeValues[];
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
  ticket_numbering: "in_order",
  opens_at: "",
  closes_at: "",
  postal_deadline: "",
  draw_at: "",
  skill_question: "",
  skill_options: [],
  skill_answer: "",
  charity_terms: "none",
  charity_name: "",
  charity_number: "",
  charity_website: "",
  charity_revenue_percent: "",
  charity_fixed_amount: "",
  prizes: [],
};

/** The fields whose value is one text. */
type TextField = Exclude<keyof CompetitionFormValues, "skill_options" | "skill_answer" | "prizes">;
/** What the page may fix: a field, or `prize_terms`, how many prizes there are and what each further one is worth. */
export type LockableField = TextField | "prize_terms";

const CHARITY_TERM_WORDS: Record<CharityTerms, string> = {
  none: "No charity partner",
  share: "A share of the ticket revenue",
  fixed: "A fixed sum",
};

/**
 * The competition form, for a new draft or an edit. Fields the competition's state does not let change are
 * disabled (and so not sent). A refused save keeps what was typed and shows every message beside its field
 * (useFormAction).
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
  // A taken address is SQL's refusal, shown beside the slug like the schema's messages.
  const { result, errors, formErrors, pending, form } = useFormAction(action, { fieldFor: { slug_taken: "slug" } });
  // While a picture uploads, saving would leave it out: the button waits for it.
  const [uploading, setUploading] = useState(false);

  const isLocked = (field: LockableField) => locked.includes(field);
  const questionLocked = isLocked("skill_question");
  // Which of the charity's fields show: the ones the chosen terms need. The others keep what was typed, hidden.
  const [charityTerms, setCharityTerms] = useState<CharityTerms>(values.charity_terms);
  // The prizes after the first: rows added and removed here, each keeping what was typed in it.
  const rowIds = useRef(values.prizes.length);
  const [furtherPrizes, setFurtherPrizes] = useState<FurtherPrizeRow[]>(() =>
    values.prizes.map((initial, id) => ({ id, initial })),
  );
  // Where each further prize was when the last answer came back: its messages show (and count) only while it is there.
  const [refused, setRefused] = useState(() => ({ result, positions: prizePositions(furtherPrizes) }));
  if (refused.result !== result) setRefused({ result, positions: prizePositions(furtherPrizes) });
  const shownErrors = errors && withoutMovedPrizes(errors, furtherPrizes, refused.positions);
  const errorCount = shownErrors ? Object.keys(shownErrors).length : 0;
  // With further prizes, the first prize's fields say they are the 1st prize's.
  const prizeLabel = (label: string) => (furtherPrizes.length > 0 ? `1st prize ${label}` : `Prize ${label}`);

  const text = (field: TextField, label: string, hint?: ReactNode, props: React.ComponentProps<typeof Input> = {}) => (
    <Field id={`field-${field}`} label={label} hint={hints[field] ?? hint} errors={errors?.[field]}>
      {(control) => (
        <Input {...control} {...props} name={field} defaultValue={values[field]} disabled={isLocked(field)} />
      )}
    </Field>
  );

  const options = Array.from({ length: OPTION_SLOTS }, (_, i) => values.skill_options[i] ?? "");

  return (
    <form {...form} className="flex flex-col gap-8" aria-label={label}>
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
          label={prizeLabel("description")}
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
          {text("prize_value", prizeLabel("value (£)"), "In pounds, e.g. 1200 or 1199.99.", { inputMode: "decimal" })}
          {text(
            "cash_alternative",
            furtherPrizes.length > 0 ? "1st prize cash alternative (£, optional)" : "Cash alternative (£, optional)",
            "The cash the winner may take instead.",
            { inputMode: "decimal" },
          )}
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

      <FurtherPrizes
        rows={furtherPrizes}
        onChange={setFurtherPrizes}
        nextId={() => rowIds.current++}
        termsLocked={isLocked("prize_terms")}
        hint={hints.prize_terms}
        errors={shownErrors}
      />

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">Tickets</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          {text("ticket_price", "Ticket price (£)", "At least £0.25.", { inputMode: "decimal" })}
          {text("total_tickets", "Total tickets", "Sold online, 1 to 1,000,000.", { inputMode: "numeric" })}
          {text("max_tickets_per_user", "Tickets per person", "Online and postal together.", {
            inputMode: "numeric",
          })}
        </div>
        <Field
          id="field-ticket_numbering"
          label="Ticket numbers"
          hint={
            hints.ticket_numbering ??
            "In purchase order, or players pick their numbers from a grid (or take a lucky dip). Fixed when published."
          }
          errors={errors?.ticket_numbering}
        >
          {(control) => (
            <select
              {...control}
              name="ticket_numbering"
              defaultValue={values.ticket_numbering}
              disabled={isLocked("ticket_numbering")}
              className={cn(controlClasses, "px-3 sm:w-72")}
            >
              {ENUM_VALUES.ticket_numbering.map((v) => (
                <option key={v} value={v}>
                  {enumLabel("ticket_numbering", v)}
                </option>
              ))}
            </select>
          )}
        </Field>
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
                  data-invalid={errors?.skill_answer ? true : undefined}
                  className="size-4 accent-primary"
                />
                Answer {i + 1} is correct
              </label>
            </div>
          ))}
          {errors?.skill_options || errors?.skill_answer ? (
            // The answers and the choice of the correct one are two fields: each message on its own line.
            <div id="skill-answers-error" className="text-sm text-destructive">
              {errors.skill_options ? <p>{errors.skill_options[0]}</p> : null}
              {errors.skill_answer ? <p>{errors.skill_answer[0]}</p> : null}
            </div>
          ) : null}
        </fieldset>
      </fieldset>

      <fieldset className="flex flex-col gap-4">
        <legend className="mb-2 text-lg font-semibold">Charity partner</legend>
        <p className="text-sm text-muted-foreground">
          {hints.charity_terms ??
            "Optional. Shown to players before they enter, and fixed when the competition is published, like its dates."}
        </p>
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={errors?.charity_terms ? "field-charity_terms-error" : undefined}
        >
          <legend className="mb-1 text-sm font-medium">What the charity receives</legend>
          {CHARITY_TERMS.map((terms) => (
            <div key={terms} className="flex items-center gap-2">
              <input
                id={`field-charity_terms-${terms}`}
                type="radio"
                name="charity_terms"
                value={terms}
                checked={charityTerms === terms}
                onChange={() => setCharityTerms(terms)}
                disabled={isLocked("charity_terms")}
                data-invalid={errors?.charity_terms ? true : undefined}
                className="size-4 accent-primary"
              />
              <label htmlFor={`field-charity_terms-${terms}`} className="text-sm">
                {CHARITY_TERM_WORDS[terms]}
              </label>
            </div>
          ))}
          {errors?.charity_terms ? (
            <p id="field-charity_terms-error" className="text-sm text-destructive">
              {errors.charity_terms[0]}
            </p>
          ) : null}
        </fieldset>
        <div hidden={charityTerms === "none"} className="grid gap-4 sm:grid-cols-2">
          {text(
            "charity_name",
            "Charity's name",
            `As registered, ${COMPETITION_LIMITS.charityName.min} to ${COMPETITION_LIMITS.charityName.max} characters.`,
            { autoComplete: "off" },
          )}
          {text(
            "charity_number",
            "Registered charity number",
            "6 or 7 digits (England and Wales), SC and 6 digits (Scotland) or NIC and 6 digits (Northern Ireland).",
            { autoComplete: "off" },
          )}
          {text("charity_website", "Charity's website (optional)", "An https:// address.", {
            type: "url",
            autoComplete: "off",
          })}
          <div hidden={charityTerms !== "share"}>
            {text(
              "charity_revenue_percent",
              "Share of the ticket revenue (%)",
              "Of the paid, not refunded entries, worked out at the draw: above 0 and at most 100.",
              { inputMode: "decimal" },
            )}
          </div>
          <div hidden={charityTerms !== "fixed"}>
            {text("charity_fixed_amount", "Fixed sum (£)", "In pounds, e.g. 500 or 499.99.", {
              inputMode: "decimal",
            })}
          </div>
        </div>
      </fieldset>

      <div className="flex flex-col gap-3">
        {errorCount > 0 ? (
          <Alert variant="destructive">
            {errorCount === 1
              ? "1 field needs changing: see the message beside it."
              : `${errorCount} fields need changing: see the messages beside them.`}
          </Alert>
        ) : null}
        <FormStatus result={result} formErrors={formErrors} />
        <div>
          <Button type="submit" disabled={pending || uploading} aria-disabled={pending || uploading}>
            {pending ? pendingLabel : uploading ? "Waiting for the upload…" : submitLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}
