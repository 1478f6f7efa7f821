"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { approveAccount, rejectAccount } from "@/lib/actions/approvals";

// Approve in one click; reject needs a reason the user will see.
export function ApprovalActions({ userId, name }: { userId: string; name: string }) {
  const [approved, approve] = useActionState(approveAccount, null);
  const [rejected, reject] = useActionState(rejectAccount, null);
  const rejectErrors = rejected && !rejected.ok ? rejected.fieldErrors : undefined;
  return (
    <div className="flex flex-col gap-3">
      <form action={approve} aria-label={`Approve ${name}`}>
        <input type="hidden" name="userId" value={userId} />
        <SubmitButton pendingLabel="Approving…">Approve {name}</SubmitButton>
      </form>
      <FormStatus result={approved} />
      <form action={reject} aria-label={`Reject ${name}`} className="flex flex-col gap-2" noValidate>
        <input type="hidden" name="userId" value={userId} />
        <Field id={`reason-${userId}`} label={`Reason for rejecting ${name}`} errors={rejectErrors?.reason}>
          {(control) => <Input {...control} name="reason" />}
        </Field>
        <SubmitButton pendingLabel="Rejecting…">Reject {name}</SubmitButton>
      </form>
      <FormStatus result={rejected} />
    </div>
  );
}
