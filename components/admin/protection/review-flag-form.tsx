"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field, SelectField } from "@/components/ui/field";
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
      <SelectField
        id={`review-intervention-${flagId}`}
        label="Intervention"
        errors={errors?.intervention}
        name="intervention"
        defaultValue=""
        options={LABELS.intervention_kind}
        values={interventions}
        blank="None"
      />
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…">
        Mark reviewed
      </FormFooter>
    </form>
  );
}
