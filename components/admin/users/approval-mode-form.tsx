"use client";

import { useState } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { changeApprovalMode } from "@/lib/actions/approvals";
import { APPROVAL_MODES, type ApprovalMode } from "@/lib/data/admin-users-options";
import { APPROVAL_MODE_HINTS } from "@/lib/labels";
import { LABELS } from "@/lib/labels";

const OPTIONS: { value: ApprovalMode; label: string; hint: string }[] = APPROVAL_MODES.map((value) => ({
  value,
  label: LABELS.approval_mode[value],
  hint: APPROVAL_MODE_HINTS[value],
}));

/** The approval mode (app setting approval_mode), audited with the old and new value. */
export function ApprovalModeForm({ mode }: { mode: ApprovalMode }) {
  const { result, pending, form } = useFormAction(changeApprovalMode);
  const [value, setValue] = useState<ApprovalMode>(mode);
  return (
    <form {...form} aria-label="Approval mode" className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">New sign-ups</legend>
        {OPTIONS.map((option) => (
          <label key={option.value} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="mode"
              value={option.value}
              checked={value === option.value}
              onChange={() => setValue(option.value)}
              className="mt-1 size-4 accent-primary"
            />
            <span>
              <span className="font-medium">{option.label}</span>
              <span className="block text-muted-foreground">{option.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <FormFooter result={result} pending={pending} pendingLabel="Saving…">
        Save approval mode
      </FormFooter>
    </form>
  );
}
