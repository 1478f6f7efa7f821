"use client";

import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { claimPrizeAction } from "@/lib/actions/claims";
import type { MyPrize } from "@/lib/data/competitions";
import { formatPounds } from "@/lib/format";

/**
 * The winner's claim (claim_prize): the prize, with the UK address to send it to, or the cash alternative where
 * the competition offers one. It can change until the prize is verified; SQL decides who may claim and until
 * when. Dispatched from onSubmit, so a refused claim keeps what was typed; focus goes to the first field to fix.
 */
export function PrizeClaimForm({ prize }: { prize: MyPrize }) {
  const [result, dispatch, pending] = useActionState(claimPrizeAction, null);
  const formRef = useRef<HTMLFormElement>(null);
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  const id = prize.draw_id;
  const cash = prize.cash_alternative;
  const claimed = prize.prize_status === "claimed";

  useEffect(() => {
    const wrong = result && !result.ok ? result.fieldErrors : undefined;
    if (!wrong || !formRef.current) return;
    const first = Array.from(formRef.current.elements).find((el): el is HTMLInputElement =>
      el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement
        ? el.type !== "hidden" && el.name in wrong
        : false,
    );
    first?.focus();
  }, [result]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  }

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      className="flex flex-col gap-4"
      noValidate
      aria-label={`Claim your prize: ${prize.competition.title}`}
    >
      <input type="hidden" name="drawId" value={id} />
      {cash === null ? (
        <input type="hidden" name="choice" value="prize" />
      ) : (
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={errors?.choice ? `prize-choice-${id}-error` : undefined}
        >
          <legend className="mb-1 text-sm font-medium">Take the prize or the cash</legend>
          {(["prize", "cash"] as const).map((c) => (
            <div key={c} className="flex items-center gap-2">
              <input
                id={`prize-choice-${id}-${c}`}
                type="radio"
                name="choice"
                value={c}
                defaultChecked={prize.prize_choice === c}
                className="size-4 accent-primary"
              />
              <label htmlFor={`prize-choice-${id}-${c}`}>
                {c === "cash" ? `${formatPounds(cash)} cash` : `The prize: ${prize.prize_description}`}
              </label>
            </div>
          ))}
          {errors?.choice ? (
            <p id={`prize-choice-${id}-error`} className="text-sm text-destructive">
              {errors.choice.join(" ")}
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
      <Outcome result={result} cash={cash} />
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
  cash,
}: {
  result: Awaited<ReturnType<typeof claimPrizeAction>> | null;
  cash: number | null;
}) {
  if (!result) return null;
  if (!result.ok) return result.fieldErrors ? null : <Alert variant="destructive">{result.error}</Alert>;
  if (result.data.prize_choice === "cash" && cash !== null) {
    return <Alert variant="success">Claimed: you will receive {formatPounds(cash)} cash.</Alert>;
  }
  return <Alert variant="success">Claimed: we will send the prize to the address you gave.</Alert>;
}
