"use client";

import { useActionState, useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { updateUserDetails } from "@/lib/actions/admin-users";
import { KYC_STATUSES, type ApprovalState, type KycStatus } from "@/lib/data/admin-users-options";
import { KYC_LABELS } from "./user-filters";

/** Name, approval and KYC status. Controlled, so a refused save keeps what was typed. */
export function UserDetailsForm({
  userId,
  name,
  approval,
  kyc,
  rejectionReason,
}: {
  userId: string;
  name: string;
  approval: ApprovalState;
  kyc: KycStatus;
  rejectionReason: string | null;
}) {
  const [result, action] = useActionState(updateUserDetails, null);
  const [values, setValues] = useState({ name, approval: approval === "approved" ? "approved" : "pending", kyc });
  const errors = result && !result.ok ? result.fieldErrors : undefined;
  return (
    <form action={action} aria-label="User details" className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="userId" value={userId} />
      <Field id="user-name" label="Name" errors={errors?.name}>
        {(control) => (
          <Input
            {...control}
            name="name"
            value={values.name}
            onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
          />
        )}
      </Field>
      <Field
        id="user-approval"
        label="Approval"
        hint={
          approval === "rejected"
            ? `Rejected${rejectionReason ? `: “${rejectionReason}”` : ""}. Choose Approved to approve them after all.`
            : "Approving e-mails them. Reject with a reason on the Approvals screen."
        }
        errors={errors?.approval}
      >
        {(control) => (
          <Select
            {...control}
            name="approval"
            value={values.approval}
            onChange={(e) => setValues((v) => ({ ...v, approval: e.target.value }))}
          >
            <option value="approved">Approved</option>
            <option value="pending">{approval === "rejected" ? "Rejected (leave as it is)" : "Not approved"}</option>
          </Select>
        )}
      </Field>
      <Field id="user-kyc" label="KYC status" errors={errors?.kyc}>
        {(control) => (
          <Select
            {...control}
            name="kyc"
            value={values.kyc}
            onChange={(e) => setValues((v) => ({ ...v, kyc: e.target.value as KycStatus }))}
          >
            {KYC_STATUSES.map((status) => (
              <option key={status} value={status}>
                {KYC_LABELS[status]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <FormStatus result={result} />
      <div>
        <SubmitButton pendingLabel="Saving…">Save details</SubmitButton>
      </div>
    </form>
  );
}
