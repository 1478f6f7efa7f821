"use client";

import { useState } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field, SelectField } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { Checkbox } from "@/components/ui/checkbox";
import { recordPlayerIntervention } from "@/lib/actions/admin-protection";
import type { ActionResult } from "@/lib/actions/result";
import { type InterventionKind } from "@/lib/data/admin-protection-options";
import { LABELS } from "@/lib/labels";

/** Records an intervention on a player (/admin/users/{id}); cleared after it is recorded, kept after a refusal. */
export function InterventionForm({ userId, kinds }: { userId: string; kinds: InterventionKind[] }) {
  const { result, errors, formErrors, pending, form } = useFormAction(recordPlayerIntervention);
  const [note, setNote] = useState("");
  const [kind, setKind] = useState<string>(kinds[0] ?? "note");
  const [confirmClose, setConfirmClose] = useState(false);
  const [shown, setShown] = useState<ActionResult | null>(null);
  if (result !== shown) {
    setShown(result);
    if (result?.ok) {
      setNote("");
      setKind("note");
      setConfirmClose(false);
    }
  }
  return (
    <form {...form} aria-label="Record an intervention" className="flex flex-col gap-3">
      <input type="hidden" name="userId" value={userId} />
      <SelectField
        id="intervention-kind"
        label="What was done"
        hint="Restricting play refuses top-ups and entries until the restriction is lifted. Closing the account is permanent."
        errors={errors?.kind}
        name="kind"
        value={kind}
        onChange={(e) => setKind(e.target.value)}
        options={LABELS.intervention_kind}
        values={kinds}
      />
      {kind === "closed" ? (
        <div className="flex flex-col gap-1">
          <label className="flex items-start gap-2 text-sm">
            <Checkbox
              name="confirmClose"
              checked={confirmClose}
              onChange={(e) => setConfirmClose(e.target.checked)}
              aria-invalid={errors?.confirmClose ? true : undefined}
              aria-describedby={errors?.confirmClose ? "intervention-confirm-error" : undefined}
              className="mt-1"
            />
            <span className="font-medium">I confirm: close this account for good</span>
          </label>
          {errors?.confirmClose ? (
            <p id="intervention-confirm-error" className="text-sm text-destructive">
              {errors.confirmClose[0]}
            </p>
          ) : null}
        </div>
      ) : null}
      <Field id="intervention-note" label="Note" hint="Required, 3 to 2000 characters." errors={errors?.note}>
        {(control) => (
          <Textarea {...control} name="note" rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
        )}
      </Field>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Recording…">
        Record intervention
      </FormFooter>
    </form>
  );
}
