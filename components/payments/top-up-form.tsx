"use client";

import { useEffect, useId, useState, useTransition } from "react";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { quoteTopUpAction, startTopUpAction } from "@/lib/actions/payments";
import type { ActionResult } from "@/lib/actions/result";
import type { TopUpQuote } from "@/lib/data/payments-schema";
import { formatGBP } from "@/lib/format";
import { cn } from "@/lib/utils";

const QUOTE_DELAY_MS = 300;

/**
 * The amount, the quick picks, and the live quote: every figure shown (bonus, credit landing,
 * limit left) and every refusal comes from quote_top_up, asked a moment after the player stops
 * typing. "Continue" creates the top-up (SQL checks it all again) and goes to the checkout.
 */
export function TopUpForm({ quickPicks }: { quickPicks: number[] }) {
  const ids = useId();
  const [amount, setAmount] = useState("");
  const [quote, setQuote] = useState<ActionResult<TopUpQuote> | null>(null);
  const [quoting, startQuote] = useTransition();
  const { result, pending: submitting, form } = useFormAction(startTopUpAction);
  // A refusal from "Continue" belongs to the amount it was for: editing the amount clears it.
  const [showResult, setShowResult] = useState(false);

  useEffect(() => {
    if (amount.trim() === "") return;
    const timer = setTimeout(() => {
      startQuote(async () => {
        const form = new FormData();
        form.set("amount", amount);
        const next = await quoteTopUpAction(null, form);
        startQuote(() => setQuote(next));
      });
    }, QUOTE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [amount]);

  const shown = amount.trim() === "" ? null : quote;
  const data = shown?.ok ? shown.data : null;
  // A field message: the format (zod, in the action) or SQL's refusal of this amount.
  const submitErrors = showResult && result && !result.ok ? (result.fieldErrors?.amount ?? [result.error]) : undefined;
  const quoteErrors =
    shown && !shown.ok
      ? (shown.fieldErrors?.amount ?? [shown.error])
      : data?.refusal
        ? [data.refusal.message]
        : undefined;
  const errors = submitErrors ?? quoteErrors;

  return (
    <form
      {...form}
      onSubmit={(event) => {
        setShowResult(true);
        form.onSubmit(event);
      }}
      className="flex flex-col gap-5"
    >
      <div role="group" aria-label="Quick picks" className="flex flex-wrap gap-2">
        {quickPicks.map((pick) => (
          <button
            key={pick}
            type="button"
            aria-pressed={amount === String(pick)}
            onClick={() => {
              setAmount(String(pick));
              setShowResult(false);
            }}
            className={cn(
              "h-10 min-w-16 rounded-md border px-3 text-sm font-semibold transition-colors",
              amount === String(pick)
                ? "border-primary bg-primary text-primary-foreground"
                : "border-border bg-background hover:bg-accent",
            )}
          >
            {formatGBP(pick).replace(/\.00$/, "")}
          </button>
        ))}
      </div>

      <Field id={`${ids}-amount`} label="Amount" hint="In pounds, pence allowed (for example 12.50)." errors={errors}>
        {(control) => (
          <div className="flex items-center gap-2">
            <span aria-hidden className="text-lg font-semibold">
              £
            </span>
            <Input
              {...control}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => {
                setAmount(e.target.value);
                setShowResult(false);
              }}
              className="max-w-48 text-lg tabular-nums"
            />
          </div>
        )}
      </Field>

      <dl className="grid grid-cols-2 gap-2 rounded-lg bg-muted p-4 text-sm" aria-busy={quoting} aria-label="Quote">
        <dt className="text-muted-foreground">You pay</dt>
        <dd className="text-right font-semibold tabular-nums" data-testid="quote-amount">
          {data?.amount != null && !data.refusal ? formatGBP(data.amount) : "–"}
        </dd>
        <dt className="text-muted-foreground">Bonus credit</dt>
        <dd className="text-right tabular-nums" data-testid="quote-bonus">
          {data?.bonus != null && !data.refusal ? formatGBP(data.bonus) : "–"}
        </dd>
        <dt className="text-muted-foreground">Credit added</dt>
        <dd className="text-right text-lg font-bold tabular-nums" data-testid="quote-credit">
          {data?.credit != null && !data.refusal ? formatGBP(data.credit) : "–"}
        </dd>
        {data?.monthly_remaining != null ? (
          <>
            <dt className="text-muted-foreground">Left to top up this month</dt>
            <dd className="text-right tabular-nums" data-testid="quote-monthly-remaining">
              {formatGBP(data.monthly_remaining)}
            </dd>
          </>
        ) : null}
      </dl>

      <Button type="submit" size="lg" disabled={submitting}>
        {submitting ? "Opening the payment page…" : "Continue"}
      </Button>
    </form>
  );
}
