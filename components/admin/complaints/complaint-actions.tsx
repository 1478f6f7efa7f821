"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { FormStatus } from "@/components/forms/form-status";
import { useActionState } from "react";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { acknowledgeComplaint, resolveComplaint } from "@/lib/actions/admin-complaints";

/** Marks a received complaint acknowledged (the player is e-mailed the answer deadline). */
export function AcknowledgeForm({ id, reference }: { id: string; reference: string }) {
  const [result, action] = useActionState(acknowledgeComplaint, null);
  return (
    <form action={action} aria-label={`Acknowledge ${reference}`} className="flex flex-col gap-3">
      <input type="hidden" name="id" value={id} />
      <p className="text-sm text-muted-foreground">
        Tells the player we are looking into it and when our final answer is due.
      </p>
      <FormStatus result={result} />
      <div>
        <SubmitButton pendingLabel="Acknowledging…">Acknowledge</SubmitButton>
      </div>
    </form>
  );
}

/** Resolves a complaint with the final answer, which the player reads in their account and by e-mail. */
export function ResolveForm({ id, reference }: { id: string; reference: string }) {
  const { result, errors, formErrors, pending, form } = useFormAction(resolveComplaint);
  return (
    <form {...form} aria-label={`Answer ${reference}`} className="flex flex-col gap-3">
      <input type="hidden" name="id" value={id} />
      <Field
        id="complaint-response"
        label="Final answer"
        hint="10 to 5000 characters. The player gets it by e-mail with the dispute-resolution body's details."
        errors={errors?.response}
      >
        {(control) => <Textarea {...control} name="response" rows={6} />}
      </Field>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Sending…">
        Send final answer
      </FormFooter>
    </form>
  );
}
