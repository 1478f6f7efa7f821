"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { resetTwoStepAction } from "@/lib/actions/admin-users";

/** Super admins only (the page renders it only for them; the action and the SQL check again). */
export function TwoStepResetForm({ userId }: { userId: string }) {
  const [result, action] = useActionState(resetTwoStepAction, null);
  return (
    <form action={action} aria-label="Two-step verification" className="flex flex-col gap-4">
      <input type="hidden" name="userId" value={userId} />
      <FormStatus result={result} />
      <div>
        <SubmitButton pendingLabel="Resetting…">Reset two-step verification</SubmitButton>
      </div>
    </form>
  );
}
