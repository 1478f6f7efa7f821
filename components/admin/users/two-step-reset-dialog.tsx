"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { DestructiveDialog, DestructiveDialogFooter } from "@/components/ui/destructive-dialog";
import { resetTwoStepAction } from "@/lib/actions/admin-users";

/**
 * Super admins only (the page renders it only for them; the action and the SQL check again). Removing someone's
 * authenticators and voiding their recovery codes cannot be undone, so it is confirmed as every destructive action is.
 */
export function TwoStepResetDialog({ userId, name }: { userId: string; name: string }) {
  const [result, action, pending] = useActionState(resetTwoStepAction, null);
  return (
    <DestructiveDialog
      trigger="Reset two-step verification"
      title={`Reset ${name}'s two-step verification?`}
      description="Their authenticator apps are removed and their unused recovery codes stop working. They sign in with their password and set up a new authenticator (admins must before the console opens). This cannot be undone."
    >
      <form action={action} aria-label="Two-step verification" className="flex flex-col gap-4">
        <input type="hidden" name="userId" value={userId} />
        <FormStatus result={result} />
        <DestructiveDialogFooter
          keepLabel="Cancel"
          confirmLabel="Reset two-step verification"
          pendingLabel="Resetting…"
          pending={pending}
        />
      </form>
    </DestructiveDialog>
  );
}
