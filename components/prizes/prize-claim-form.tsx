"use client";

import { FormStatus } from "@/components/forms/form-status";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { claimPrizeAction } from "@/lib/actions/claims";
import type { MyPrize } from "@/lib/data/competitions";
import { formatPounds } from "@/lib/format";
import { ENUM_VALUES } from "@/lib/labels";

/**
 * The winner's claim (claim_prize): the prize, with the UK address to send it to, or the cash alternative where
 * the competition offers one. It can change until the prize is verified; SQL decides who may claim and until
 * when. A refused claim keeps what was typed; focus goes to the first field to fix (useFormAction).
 */
export function PrizeClaimForm({ prize }: { prize: MyPrize }) {
  const { result, errors, formErrors, pending, form } = useFormAction(claimPrizeAction);
  const id = prize.draw_id;
  const cash = prize.cash_alternative;
  const claimed = prize.prize_status === "claimed";

  return (
    <form {...form} className="flex flex-col gap-4" aria-label={`Claim your prize: ${prize.competition.title}`}>
      <input type="hidden" name="drawId" value={id} />
      {cash === null ? (
        <input type="hidden" name="choice" value="prize" />
      ) : (
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={errors?.choice ? `prize-choice-${id}-error` : undefined}
        >
          <legend className="mb-1 text-sm font-medium">Take the prize or the cash</legend>
          {ENUM_VALUES.prize_choice.map((c) => (
            <div key={c} className="flex items-center gap-2">
              <input
                id={`prize-choice-${id}-${c}`}
                type="radio"
                name="choice"
                value={c}
                defaultChecked={prize.prize_choice === c}
                data-invalid={errors?.choice ? true : undefined}
                className="size-4 accent-primary"
              />
              <label htmlFor={`prize-choice-${id}-${c}`}>
                {c === "cash" ? `${formatPounds(cash)} cash` : `The prize: ${prize.prize_description}`}
              </label>
            </div>
          ))}
          {errors?.choice ? (
            <p id={`prize-choice-${id}-error`} className="text-sm text-destructive">
              {errors.choice[0]}
            </p>
          ) : null}
        </fieldset>
      )}
      <Field
        id={`prize-address-${id}`}
        label="Delivery address"
        hint={
          cash === null
            ? "Where we send the prize: a UK address with its postcode."
            : "Where we send the prize: a UK address with its postcode. Not needed for the cash: we will contact you to pay it."
        }
        errors={errors?.deliveryAddress}
      >
        {(control) => (
          <Textarea
            {...control}
            name="deliveryAddress"
            rows={3}
            autoComplete="shipping street-address"
            defaultValue={prize.delivery_address ?? ""}
          />
        )}
      </Field>
      <Outcome result={result} formErrors={formErrors} cash={cash} />
      <div>
        <Button type="submit" disabled={pending} aria-disabled={pending}>
          {pending ? "Saving…" : claimed ? "Update my claim" : "Claim your prize"}
        </Button>
      </div>
    </form>
  );
}

function Outcome({
  result,
  formErrors,
  cash,
}: {
  result: Awaited<ReturnType<typeof claimPrizeAction>> | null;
  formErrors: string[];
  cash: number | null;
}) {
  if (!result) return null;
  if (!result.ok) return <FormStatus result={result} formErrors={formErrors} />;
  if (result.data.prize_choice === "cash" && cash !== null) {
    return <Alert variant="success">Claimed: you will receive {formatPounds(cash)} cash.</Alert>;
  }
  return <Alert variant="success">Claimed: we will send the prize to the address you gave.</Alert>;
}
