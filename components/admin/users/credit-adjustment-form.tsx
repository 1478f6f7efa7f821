"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { adjustUserCredit } from "@/lib/actions/admin-users";

/** Adds or takes credit with a reason the player sees. Cleared after a posted adjustment, kept after a refusal. */
export function CreditAdjustmentForm({ userId, threshold }: { userId: string; threshold: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(adjustUserCredit, { clearOnSuccess: true });
  return (
    <form {...form} aria-label="Adjust credit" className="flex flex-col gap-4">
      <input type="hidden" name="userId" value={userId} />
      <Field
        id="adjust-amount"
        label="Amount (£)"
        hint={`A positive amount adds credit, a negative one takes it. Over ${threshold} either way needs a super admin.`}
        errors={errors?.amount}
      >
        {(control) => <Input {...control} name="amount" inputMode="decimal" autoComplete="off" />}
      </Field>
      <Field
        id="adjust-reason"
        label="Reason"
        hint="Required. The player sees it in their credit history, and it is kept in the activity log."
        errors={errors?.reason}
      >
        {(control) => <Textarea {...control} name="reason" rows={3} />}
      </Field>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Adjusting…">
        Adjust credit
      </FormFooter>
    </form>
  );
}
