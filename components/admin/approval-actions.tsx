"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { DestructiveDialog, DestructiveDialogFooter } from "@/components/ui/destructive-dialog";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { approveAccount, rejectAccount } from "@/lib/actions/approvals";

// Approve in one click; reject is the quieter action, confirmed in a dialog with the reason the user will see.
// The forms are landmarks, so their names must be unique on the page: two people waiting may share a name,
// never an e-mail.
export function ApprovalActions({ userId, name, email }: { userId: string; name: string; email: string | null }) {
  const who = email ? `${name} (${email})` : name;
  const [approved, approve] = useActionState(approveAccount, null);
  const { result: rejected, errors: rejectErrors, formErrors, pending, form } = useFormAction(rejectAccount);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start gap-3">
        <form action={approve} aria-label={`Approve ${who}`}>
          <input type="hidden" name="userId" value={userId} />
          <SubmitButton pendingLabel="Approving…">Approve {name}</SubmitButton>
        </form>
        <DestructiveDialog
          trigger={`Reject ${name}`}
          title={`Reject ${who}?`}
          description="They cannot top up or enter competitions. They see your reason on their account and in their notifications."
        >
          <form {...form} aria-label={`Reject ${who}`} className="flex flex-col gap-4">
            <input type="hidden" name="userId" value={userId} />
            <Field id={`reason-${userId}`} label={`Reason for rejecting ${name}`} errors={rejectErrors?.reason}>
              {(control) => <Input {...control} name="reason" />}
            </Field>
            <FormStatus result={rejected} formErrors={formErrors} />
            <DestructiveDialogFooter
              keepLabel="Keep waiting"
              confirmLabel={`Reject ${name}`}
              pendingLabel="Rejecting…"
              pending={pending}
            />
          </form>
        </DestructiveDialog>
      </div>
      <FormStatus result={approved} />
    </div>
  );
}
