"use client";

import { FormStatus } from "@/components/forms/form-status";
import { Button } from "@/components/ui/button";
import { markInstantWinDeliveredAction } from "@/lib/actions/admin-competitions";
import { useFormAction } from "@/lib/hooks/use-form-action";

/** "Mark delivered" for one instant-win prize an admin sent. */
export function InstantWinDeliveredForm({ id, label }: { id: string; label: string }) {
  const { result, formErrors, pending, form } = useFormAction(markInstantWinDeliveredAction);
  return (
    <form {...form} className="flex flex-col gap-2" aria-label={label}>
      <input type="hidden" name="instantWinId" value={id} />
      <FormStatus result={result} formErrors={formErrors} />
      <div>
        <Button type="submit" size="sm" disabled={pending} aria-disabled={pending}>
          {pending ? "Saving…" : "Mark delivered"}
        </Button>
      </div>
    </form>
  );
}
