"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/forms/submit-button";
import { Alert } from "@/components/ui/alert";
import { claimPrizeAction } from "@/lib/actions/claims";
import type { ActionResult } from "@/lib/actions/result";
import type { PrizeChoice } from "@/lib/data/competitions";
import { formatPounds } from "@/lib/format";

/**
 * The winner's claim (claim_prize). With a cash alternative: the prize or the cash, changeable until the prize is
 * verified; without one: a single "Claim your prize". SQL decides who may claim and until when. The page keeps
 * this mounted when the form goes (claimed, or verified meanwhile), so the last answer stays on screen.
 */
export function PrizeChoiceForm({
  drawId,
  prizeDescription,
  cashAlternative,
  choice,
  showForm,
}: {
  drawId: string;
  prizeDescription: string;
  cashAlternative: number | null;
  choice: PrizeChoice | null;
  showForm: boolean;
}) {
  const [result, action] = useActionState(claimPrizeAction, null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  const errorId = `prize-choice-${drawId}-error`;
  const outcome = <Outcome result={result} cashAlternative={cashAlternative} prizeDescription={prizeDescription} />;
  if (!showForm) return outcome;

  return (
    <form action={action} className="flex flex-col items-start gap-3" noValidate>
      <input type="hidden" name="drawId" value={drawId} />
      {cashAlternative === null ? (
        <input type="hidden" name="choice" value="prize" />
      ) : (
        <fieldset className="flex flex-col gap-2" aria-describedby={errors?.choice ? errorId : undefined}>
          <legend className="mb-1 text-sm font-medium">Take the prize or the cash</legend>
          {(["prize", "cash"] as const).map((c) => (
            <div key={c} className="flex items-center gap-2">
              <input
                id={`prize-choice-${drawId}-${c}`}
                type="radio"
                name="choice"
                value={c}
                defaultChecked={choice === c}
                className="size-4 accent-primary"
              />
              <label htmlFor={`prize-choice-${drawId}-${c}`}>
                {c === "cash" ? `${formatPounds(cashAlternative)} cash` : `The prize: ${prizeDescription}`}
              </label>
            </div>
          ))}
          {errors?.choice ? (
            <p id={errorId} className="text-sm text-destructive">
              {errors.choice.join(" ")}
            </p>
          ) : null}
        </fieldset>
      )}
      {errors ? null : outcome}
      <SubmitButton pendingLabel="Saving…">
        {cashAlternative === null ? "Claim your prize" : choice === null ? "Confirm my choice" : "Change my choice"}
      </SubmitButton>
    </form>
  );
}

function Outcome({
  result,
  cashAlternative,
  prizeDescription,
}: {
  result: ActionResult<{ prize_choice: PrizeChoice }> | null;
  cashAlternative: number | null;
  prizeDescription: string;
}) {
  if (!result) return null;
  if (!result.ok) return <Alert variant="destructive">{result.error}</Alert>;
  if (cashAlternative === null) return <Alert variant="success">Your claim is saved.</Alert>;
  const chosen =
    result.data.prize_choice === "cash" ? `${formatPounds(cashAlternative)} cash` : `the prize (${prizeDescription})`;
  return <Alert variant="success">Saved: you will receive {chosen}.</Alert>;
}
