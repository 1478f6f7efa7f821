"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Checkbox } from "@/components/ui/checkbox";
import { approveAccounts } from "@/lib/actions/approvals";

export const BULK_FORM_ID = "bulk-approve";

const tickBoxes = () => document.querySelectorAll<HTMLInputElement>(`input[name="userIds"][form="${BULK_FORM_ID}"]`);

/**
 * Approve the ticked accounts together. The tick boxes sit in each account's card (they belong to
 * this form through their form attribute, since the cards hold their own approve and reject forms);
 * "Select all" ticks or clears every one, and shows whether all, some or none are ticked.
 */
export function BulkApproveForm({ waiting }: { waiting: number }) {
  const [result, action] = useActionState(approveAccounts, null);
  const selectAll = useRef<HTMLInputElement>(null);
  const [ticked, setTicked] = useState(0);

  useEffect(() => {
    const count = () => {
      const boxes = [...tickBoxes()];
      const n = boxes.filter((box) => box.checked).length;
      setTicked(n);
      if (selectAll.current) {
        selectAll.current.checked = n > 0 && n === boxes.length;
        selectAll.current.indeterminate = n > 0 && n < boxes.length;
      }
    };
    count();
    document.addEventListener("change", count);
    return () => document.removeEventListener("change", count);
  }, [waiting]);

  function toggleAll(checked: boolean) {
    for (const box of tickBoxes()) box.checked = checked;
    // Setting .checked fires no change event: count again for the label and the mixed state.
    document.dispatchEvent(new Event("change"));
  }

  return (
    <form
      id={BULK_FORM_ID}
      action={action}
      aria-label="Approve in bulk"
      className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4"
    >
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3">
        <label className="flex items-center gap-2 text-sm font-medium">
          <Checkbox ref={selectAll} onChange={(event) => toggleAll(event.currentTarget.checked)} />
          Select all {waiting} waiting
        </label>
        <SubmitButton pendingLabel="Approving…">Approve selected</SubmitButton>
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {ticked === 1 ? "1 selected" : `${ticked} selected`}
        </p>
      </div>
      <FormStatus result={result} />
    </form>
  );
}
