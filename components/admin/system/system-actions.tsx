"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { FormStatus } from "@/components/forms/form-status";
import { useActionState } from "react";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { acknowledgeAlertAction, resolvePaymentAction, retryMailAction } from "@/lib/actions/admin-system";

// The System page's actions, shown to super admins only (SQL refuses everyone else). Each form is a landmark
// named after what it acts on, so the names are unique on the page.

/** Puts a failed mail back in the queue. */
export function RetryMailForm({ mailId, label }: { mailId: number; label: string }) {
  const [result, action] = useActionState(retryMailAction, null);
  return (
    <form action={action} aria-label={`Retry mail ${mailId}: ${label}`} className="flex flex-col gap-2">
      <input type="hidden" name="mailId" value={mailId} />
      <div>
        <SubmitButton pendingLabel="Queueing…" variant="outline">
          Retry
        </SubmitButton>
      </div>
      <FormStatus result={result} />
    </form>
  );
}

/** Marks an alert seen: it leaves the console's notice (the incident is never mailed again either way). */
export function AcknowledgeAlertForm({ alertId, label }: { alertId: number; label: string }) {
  const [result, action] = useActionState(acknowledgeAlertAction, null);
  return (
    <form action={action} aria-label={`Acknowledge alert ${alertId}: ${label}`} className="flex flex-col gap-2">
      <input type="hidden" name="alertId" value={alertId} />
      <div>
        <SubmitButton pendingLabel="Saving…" variant="outline">
          Acknowledge
        </SubmitButton>
      </div>
      <FormStatus result={result} />
    </form>
  );
}

/** Records how a payment needing a person was dealt with. */
export function ResolvePaymentForm({
  kind,
  reference,
  label,
}: {
  kind: "mismatch" | "owed";
  reference: string;
  label: string;
}) {
  const { result, errors, formErrors, pending, form } = useFormAction(resolvePaymentAction, { clearOnSuccess: true });
  const id = `resolve-${kind}-${reference}`;
  return (
    <form {...form} aria-label={`Resolve ${label} (${reference})`} className="flex flex-col gap-2">
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="reference" value={reference} />
      <Field id={id} label="What was done" hint="3 to 2000 characters, kept in the activity log." errors={errors?.note}>
        {(control) => <Textarea {...control} name="note" rows={2} />}
      </Field>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…">
        Mark dealt with
      </FormFooter>
    </form>
  );
}
