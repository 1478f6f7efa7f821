"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field, SelectField } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { updatePrizeFulfilmentAction } from "@/lib/actions/admin-competitions";
import type { PrizeFulfilment } from "@/lib/data/admin-competitions";
import { ENUM_VALUES, LABELS } from "@/lib/labels";
import { PRIZE_STATUS, PRIZE_STATUSES } from "@/lib/prizes/steps";

/**
 * One prize's status, note and proof-of-delivery reference, and until it is verified the identity check the step to
 * verified needs; a refused save keeps what was typed.
 */
export function FulfilmentForm({
  prize,
  name,
}: {
  prize: PrizeFulfilment;
  /** What the prize is called: the competition's title, and which prize it is when it had several. */
  name: string;
}) {
  const { result, errors, formErrors, pending, form } = useFormAction(updatePrizeFulfilmentAction);
  const key = prize.draw_id;
  // Until the claim is verified, the step to verified needs what was checked (SQL refuses it without).
  const identityCheckDue = prize.prize_status === "awaiting_claim" || prize.prize_status === "claimed";

  return (
    <form {...form} className="flex flex-col gap-4" aria-label={`Fulfilment of ${name}`}>
      <input type="hidden" name="drawId" value={prize.draw_id} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={`field-status-${key}`}
          label="Prize status"
          hint="One step at a time: claimed (the winner's claim, or one by letter or phone), verified (identity checked; their claim is then fixed), delivered."
          errors={errors?.status}
        >
          {(control) => (
            <Select {...control} name="status" defaultValue={prize.prize_status}>
              {PRIZE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {PRIZE_STATUS[status].label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          id={`field-proof-${key}`}
          label="Proof-of-delivery reference"
          hint="Needed to mark it delivered: a tracking number, signed receipt or bank transfer reference."
          errors={errors?.proofOfDelivery}
        >
          {(control) => (
            <Input
              {...control}
              name="proofOfDelivery"
              defaultValue={prize.proof_of_delivery ?? ""}
              autoComplete="off"
            />
          )}
        </Field>
      </div>
      {identityCheckDue ? (
        <fieldset className="flex flex-col gap-4 rounded-lg border border-border p-4">
          <legend className="px-1 text-sm font-medium">Identity check</legend>
          <p className="text-xs text-muted-foreground">
            Needed to mark it verified. Keep only the last four letters or digits of the document&apos;s number, never
            the whole number; who checked and when are recorded for you.
          </p>
          <input type="hidden" name="identityCheckDue" value="yes" />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              id={`field-document-${key}`}
              label="Document checked"
              errors={errors?.documentType}
              name="documentType"
              defaultValue=""
              options={LABELS.identity_document}
              values={ENUM_VALUES.identity_document}
              blank="Choose…"
            />
            <Field
              id={`field-last-four-${key}`}
              label="Last four characters of its number"
              errors={errors?.documentLastFour}
            >
              {(control) => (
                <Input {...control} name="documentLastFour" maxLength={4} autoComplete="off" className="max-w-32" />
              )}
            </Field>
          </div>
          <Field
            id={`field-identity-note-${key}`}
            label="Identity check note"
            hint="How it was checked (e.g. on a video call); for another document, which one. Up to 500 characters."
            errors={errors?.identityNote}
          >
            {(control) => <Textarea {...control} name="identityNote" rows={2} />}
          </Field>
        </fieldset>
      ) : null}
      <Field
        id={`field-note-${key}`}
        label="Notes"
        hint="For admins only, up to 2,000 characters."
        errors={errors?.note}
      >
        {(control) => <Textarea {...control} name="note" rows={2} defaultValue={prize.fulfilment_note ?? ""} />}
      </Field>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…">
        Save
      </FormFooter>
    </form>
  );
}
