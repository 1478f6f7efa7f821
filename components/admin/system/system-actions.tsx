"use client";

import { useActionState } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import type { ActionHandler } from "@/lib/actions/action";
import { acknowledgeAlertAction, resolvePaymentAction, retryMailAction } from "@/lib/actions/admin-system";

// The System page's actions, shown to super admins only (SQL refuses everyone else). Each form is a landmark
// named after what it acts on, so the names are unique on the page.

/**
 * One button acting on one record, whose id goes in a hidden field, with the answer under it. The two actions share
 * one shape: a record's id in, a message out.
 */
function RecordButtonForm({
  act,
  field,
  id,
  label,
  pendingLabel,
  children,
}: {
  act: ActionHandler<undefined>;
  field: string;
  id: number;
  label: string;
  pendingLabel: string;
  children: string;
}) {
  const [result, action] = useActionState(act, null);
  return (
    <form action={action} aria-label={label} className="flex flex-col gap-2">
      <input type="hidden" name={field} value={id} />
      <div>
        <SubmitButton pendingLabel={pendingLabel} variant="outline">
          {children}
        </SubmitButton>
      </div>
      <FormStatus result={result} />
    </form>
  );
}

/** Puts a failed mail back in the queue. */
export function RetryMailForm({ mailId, label }: { mailId: number; label: string }) {
  return (
    <RecordButtonForm
      act={retryMailAction}
      field="mailId"
      id={mailId}
      label={`Retry mail ${mailId}: ${label}`}
      pendingLabel="Queueing…"
    >
      Retry
    </RecordButtonForm>
  );
}

/** Marks an alert seen: it leaves the console's notice (the incident is never mailed again either way). */
export function AcknowledgeAlertForm({ alertId, label }: { alertId: number; label: string }) {
  return (
    <RecordButtonForm
      act={acknowledgeAlertAction}
      field="alertId"
      id={alertId}
      label={`Acknowledge alert ${alertId}: ${label}`}
      pendingLabel="Saving…"
    >
      Acknowledge
    </RecordButtonForm>
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
