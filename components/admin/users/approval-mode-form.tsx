"use client";

import { useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { changeApprovalMode } from "@/lib/actions/approvals";
import type { ApprovalMode } from "@/lib/data/admin-users-options";
import { LABELS } from "@/lib/labels";

const OPTIONS: { value: ApprovalMode; label: string; hint: string }[] = [
  { value: "manual", label: LABELS.approval_mode.manual, hint: "An admin approves each new account here." },
  {
    value: "auto",
    label: LABELS.approval_mode.auto,
    // What the database checks (private.handle_new_user): nothing beyond the rule every sign-up meets.
    hint: "New accounts are approved as they sign up. The only check is the one every sign-up passes: a real date of birth showing 18 or over. Nothing checks identity, address or a second account.",
  },
];

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
      <FormStatus result={result} />
      <div>
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save approval mode
        </SubmitButton>
      </div>
    </form>
  );
}
