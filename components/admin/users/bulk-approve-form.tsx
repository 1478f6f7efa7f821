"use client";

import { useActionState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { approveAccounts } from "@/lib/actions/approvals";

export const BULK_FORM_ID = "bulk-approve";

/**
 * Approve the ticked accounts together. The tick boxes sit in each account's card (they belong to
 * this form through their form attribute, since the cards hold their own approve and reject forms).
 */
export function BulkApproveForm() {
  const [result, action] = useActionState(approveAccounts, null);
  return (
    <form id={BULK_FORM_ID} action={action} aria-label="Approve in bulk" className="flex flex-col gap-2">
      <div>
        <SubmitButton pendingLabel="Approving…">Approve selected</SubmitButton>
      </div>
      <FormStatus result={result} />
    </form>
  );
}
