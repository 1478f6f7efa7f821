"use client";

import { useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { setMonthlyLimitAction } from "@/lib/actions/protections";

/** The monthly limit: an amount in pounds (£0 allowed) or no limit. */
export function MonthlyLimitForm({ current }: { current: number | null }) {
  const { result, errors, formErrors, pending, form } = useFormAction(setMonthlyLimitAction);
  const [choice, setChoice] = useState<"limit" | "none">(current === null ? "none" : "limit");
  return (
    <form {...form} className="flex flex-col items-start gap-4">
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-medium">Your monthly limit</legend>
        <div className="flex items-center gap-2">
          <input
            id="limit-choice-limit"
            type="radio"
            name="choice"
            value="limit"
            checked={choice === "limit"}
            onChange={() => setChoice("limit")}
            className="size-4 accent-primary"
          />
          <label htmlFor="limit-choice-limit">A limit each calendar month</label>
        </div>
        {choice === "limit" ? (
          <Field
            id="field-limit-amount"
            label="Limit in pounds"
            hint="Any amount from £0. Top-ups and credit spent on entries each count towards it."
            errors={errors?.amount}
            className="max-w-xs pl-6"
          >
            {(control) => (
              <Input
                {...control}
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                defaultValue={current === null ? "" : current.toFixed(2)}
              />
            )}
          </Field>
        ) : null}
        <div className="flex items-center gap-2">
          <input
            id="limit-choice-none"
            type="radio"
            name="choice"
            value="none"
            checked={choice === "none"}
            onChange={() => setChoice("none")}
            className="size-4 accent-primary"
          />
          <label htmlFor="limit-choice-none">No limit</label>
        </div>
      </fieldset>
      <FormStatus result={result} formErrors={formErrors} />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Save limit
      </SubmitButton>
    </form>
  );
}
