"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { DestructiveDialog, DestructiveDialogFooter } from "@/components/ui/destructive-dialog";
import { deleteUserAccount } from "@/lib/actions/admin-users";

/** Super admins only: deletion is anonymisation, behind a confirmation. */
export function DeleteUserDialog({ userId, name }: { userId: string; name: string }) {
  const [result, action, pending] = useActionState(deleteUserAccount, null);
  return (
    <DestructiveDialog
      trigger="Delete user"
      title={`Delete ${name}?`}
      description="Their name, e-mail, date of birth and town are cleared and they can no longer sign in. Their credit ledger, entries and tickets are kept as financial records. This cannot be undone."
    >
      <form action={action} aria-label={`Delete ${name}`} className="flex flex-col gap-4">
        <input type="hidden" name="userId" value={userId} />
        <FormStatus result={result} />
        <DestructiveDialogFooter
          keepLabel="Cancel"
          confirmLabel={`Delete ${name}`}
          pendingLabel="Deleting…"
          pending={pending}
        />
      </form>
    </DestructiveDialog>
  );
}
