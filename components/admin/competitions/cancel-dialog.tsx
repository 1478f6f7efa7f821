"use client";

import { useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { DestructiveDialog, DestructiveDialogFooter } from "@/components/ui/destructive-dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { cancelCompetitionAction } from "@/lib/actions/admin-competitions";

/**
 * Cancel with refunds, behind a confirmation: the dialog says what happens (every paid entry refunded to credit,
 * postal entries withdrawn, every entrant e-mailed with the reason) and needs the reason entrants will read.
 */
export function CancelDialog({
  competitionId,
  title,
  paidEntries,
  postalEntries,
}: {
  competitionId: string;
  title: string;
  paidEntries: number;
  postalEntries: number;
}) {
  const [open, setOpen] = useState(false);
  const { result, errors, formErrors, pending, form } = useFormAction(cancelCompetitionAction);

  return (
    <DestructiveDialog
      trigger="Cancel competition"
      title={`Cancel ${title}?`}
      open={open}
      onOpenChange={setOpen}
      description={
        <>
          {paidEntries === 1 ? "1 paid entry is" : `${paidEntries} paid entries are`} refunded to the buyers&apos;
          credit and {postalEntries === 1 ? "1 postal entry is" : `${postalEntries} postal entries are`} withdrawn.
          Every entrant is e-mailed with your reason. This cannot be undone.
        </>
      }
    >
      <form {...form} className="flex flex-col gap-4" aria-label="Cancel and refund">
        <input type="hidden" name="id" value={competitionId} />
        <Field
          id="field-cancel-reason"
          label="Reason (entrants will read it)"
          hint="3 to 500 characters."
          errors={errors?.reason}
        >
          {(control) => <Textarea {...control} name="reason" rows={3} />}
        </Field>
        <FormStatus result={result} formErrors={formErrors} />
        <DestructiveDialogFooter
          keepLabel="Keep it running"
          confirmLabel="Cancel and refund"
          pendingLabel="Cancelling…"
          pending={pending}
        />
      </form>
    </DestructiveDialog>
  );
}
