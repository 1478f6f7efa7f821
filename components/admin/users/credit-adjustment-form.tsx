"use client";

import { useActionState, useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { adjustUserCredit } from "@/lib/actions/admin-users";
import type { ActionResult } from "@/lib/actions/result";

const EMPTY = { amount: "", reason: "" };

/** Adds or takes credit with a reason the player sees. Cleared after a posted adjustment, kept after a refusal. */
export function CreditAdjustmentForm({ userId, threshold }: { userId: string; threshold: string }) {
  const [result, action] = useActionState(adjustUserCredit, null);
  const [values, setValues] = useState(EMPTY);
  const [shown, setShown] = useState<ActionResult | null>(null);
  if (result !== shown) {
    setShown(result);
    if (result?.ok) setValues(EMPTY);
  }
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  return (
    <form action={action} aria-label="Adjust credit" className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="userId" value={userId} />
      <Field
        id="adjust-amount"
        label="Amount (£)"
        hint={`A positive amount adds credit, a negative one takes it. Over ${threshold} either way needs a super admin.`}
        errors={errors?.amount}
      >
        {(control) => (
          <Input
            {...control}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={values.amount}
            onChange={(e) => setValues((v) => ({ ...v, amount: e.target.value }))}
          />
        )}
      </Field>
      <Field
        id="adjust-reason"
        label="Reason"
        hint="Required. The player sees it in their credit history, and it is kept in the activity log."
        errors={errors?.reason}
      >
        {(control) => (
          <Textarea
            {...control}
            name="reason"
            rows={3}
            value={values.reason}
            onChange={(e) => setValues((v) => ({ ...v, reason: e.target.value }))}
          />
        )}
      </Field>
      <FormStatus result={result} />
      <div>
        <SubmitButton pendingLabel="Adjusting…">Adjust credit</SubmitButton>
      </div>
    </form>
  );
}
