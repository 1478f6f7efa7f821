"use client";

import { FormStatus } from "@/components/forms/form-status";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { updatePrizeFulfilmentAction } from "@/lib/actions/admin-competitions";
import type { PrizeFulfilment } from "@/lib/data/admin-competitions";
import { PRIZE_STATUS, PRIZE_STATUSES } from "@/lib/prizes/steps";

/** One prize's status, note and proof-of-delivery reference; a refused save keeps what was typed. */
export function FulfilmentForm({ prize }: { prize: PrizeFulfilment }) {
  const { result, errors, formErrors, pending, form } = useFormAction(updatePrizeFulfilmentAction);
  const key = prize.draw_id;

  return (
    <form {...form} className="flex flex-col gap-4" aria-label={`Fulfilment of ${prize.competition.title}`}>
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
      <Field
        id={`field-note-${key}`}
        label="Notes"
        hint="For admins only, up to 2,000 characters."
        errors={errors?.note}
      >
        {(control) => <Textarea {...control} name="note" rows={2} defaultValue={prize.fulfilment_note ?? ""} />}
      </Field>
      <FormStatus result={result} formErrors={formErrors} />
      <div>
        <Button type="submit" disabled={pending} aria-disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}
