"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import { competitionTopUpAction } from "@/lib/actions/payments";

/** Pays the shortfall for one entry; the entry is made when the payment is confirmed. */
export function CompetitionTopUpForm({
  competitionId,
  quantity,
  answer,
  question,
  options,
}: {
  competitionId: string;
  quantity: number;
  answer: string | null;
  /** Asked here when the entry form did not pass an answer on. */
  question: string | null;
  options: string[] | null;
}) {
  const [result, pay, pending] = useActionState(competitionTopUpAction, null);
  return (
    <form action={pay} className="flex flex-col gap-4">
      <input type="hidden" name="competitionId" value={competitionId} />
      <input type="hidden" name="quantity" value={quantity} />
      {answer !== null || !question || !options ? (
        answer !== null ? (
          <input type="hidden" name="answer" value={answer} />
        ) : null
      ) : (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 font-medium">
            Skill question: <span className="font-normal">{question}</span>
          </legend>
          {options.map((option) => (
            <label
              key={option}
              className="flex cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2.5 has-[:checked]:border-primary has-[:checked]:bg-primary-soft"
            >
              <input type="radio" name="answer" value={option} required className="size-4 accent-[var(--primary)]" />
              {option}
            </label>
          ))}
        </fieldset>
      )}
      <FormStatus result={result} />
      <Button type="submit" size="lg" disabled={pending}>
        {pending ? "Opening the payment page…" : "Continue"}
      </Button>
    </form>
  );
}
