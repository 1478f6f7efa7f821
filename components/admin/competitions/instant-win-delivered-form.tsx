"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { markInstantWinDeliveredAction } from "@/lib/actions/admin-competitions";
import { useFormAction } from "@/lib/hooks/use-form-action";

/** "Mark delivered" for one instant-win prize an admin sent. */
export function InstantWinDeliveredForm({ id, label }: { id: string; label: string }) {
  const { result, formErrors, pending, form } = useFormAction(markInstantWinDeliveredAction);
  return (
    <form {...form} className="flex flex-col gap-2" aria-label={label}>
      <input type="hidden" name="instantWinId" value={id} />
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…" size="sm">
        Mark delivered
      </FormFooter>
    </form>
  );
}
