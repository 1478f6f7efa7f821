"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { buttonClasses } from "@/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { deleteUserAccount } from "@/lib/actions/admin-users";

/** Super admins only: deletion is anonymisation, behind a confirmation. */
export function DeleteUserDialog({ userId, name }: { userId: string; name: string }) {
  const [result, action] = useActionState(deleteUserAccount, null);
  return (
    <Dialog>
      <DialogTrigger className={buttonClasses("outline", "md", "border-destructive text-destructive")}>
        Delete user…
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete {name}?</DialogTitle>
          <DialogDescription>
            Their name, e-mail, date of birth and town are cleared and they can no longer sign in. Their credit ledger,
            entries and tickets are kept as financial records. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <form action={action} aria-label={`Delete ${name}`} className="flex flex-col gap-4">
          <input type="hidden" name="userId" value={userId} />
          <FormStatus result={result} />
          <DialogFooter>
            <DialogClose className={buttonClasses("outline", "md")}>Cancel</DialogClose>
            <SubmitButton pendingLabel="Deleting…">Delete {name}</SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
