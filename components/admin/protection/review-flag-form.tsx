"use client";

import { useActionState, useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { reviewFlag } from "@/lib/actions/admin-protection";
import { INTERVENTION_LABELS, type InterventionKind } from "@/lib/data/admin-protection-options";

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
  const [result, action] = useActionState(reviewFlag, null);
  // Controlled, so a refusal keeps what was typed (React resets a form's uncontrolled fields after an action).
  const [note, setNote] = useState("");
  const [intervention, setIntervention] = useState("");
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  return (
    <form action={action} aria-label={`Review: ${label}`} className="flex flex-col gap-3" noValidate>
      <input type="hidden" name="flagId" value={flagId} />
      <Field
        id={`review-note-${flagId}`}
        label="Review note"
        hint="Required, 3 to 2000 characters: what you checked and decided."
        errors={errors?.note}
      >
        {(control) => (
          <Textarea {...control} name="note" rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
        )}
      </Field>
      <Field id={`review-intervention-${flagId}`} label="Intervention" errors={errors?.intervention}>
        {(control) => (
          <Select
            {...control}
            name="intervention"
            value={intervention}
            onChange={(e) => setIntervention(e.target.value)}
          >
            <option value="">None</option>
            {interventions.map((kind) => (
              <option key={kind} value={kind}>
                {INTERVENTION_LABELS[kind]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <FormStatus result={result} />
      <div>
        <SubmitButton pendingLabel="Saving…">Mark reviewed</SubmitButton>
      </div>
    </form>
  );
}
