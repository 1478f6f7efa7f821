"use client";

import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { reviewFlag } from "@/lib/actions/admin-protection";
import { type InterventionKind } from "@/lib/data/admin-protection-options";
import { LABELS } from "@/lib/labels";

/** Marks one flag reviewed with a note; optionally records an intervention (with the same note) at once. */
export function ReviewFlagForm({
  flagId,
  label,
  interventions,
}: {
  flagId: string;
  /** Names the form: the player and the kind of flag. */
  label: string;
  /** The interventions that make sense for this player now. */
  interventions: InterventionKind[];
}) {
  const { result, errors, formErrors, pending, form } = useFormAction(reviewFlag);
  return (
    <form {...form} aria-label={`Review: ${label}`} className="flex flex-col gap-3">
      <input type="hidden" name="flagId" value={flagId} />
      <Field
        id={`review-note-${flagId}`}
        label="Review note"
        hint="Required, 3 to 2000 characters: what you checked and decided."
        errors={errors?.note}
      >
        {(control) => <Textarea {...control} name="note" rows={3} />}
      </Field>
      <Field id={`review-intervention-${flagId}`} label="Intervention" errors={errors?.intervention}>
        {(control) => (
          <Select {...control} name="intervention" defaultValue="">
            <option value="">None</option>
            {interventions.map((kind) => (
              <option key={kind} value={kind}>
                {LABELS.intervention_kind[kind]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <FormStatus result={result} formErrors={formErrors} />
      <div>
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Mark reviewed
        </SubmitButton>
      </div>
    </form>
  );
}
