"use client";

import { useState } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field, SelectField } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { updateUserDetails } from "@/lib/actions/admin-users";
import { KYC_STATUSES, type ApprovalState, type KycStatus } from "@/lib/data/admin-users-options";
import { LABELS } from "@/lib/labels";

/** Name, approval and KYC status. */
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
  const { result, errors, formErrors, pending, form } = useFormAction(updateUserDetails);
  const [values, setValues] = useState({ name, approval: approval === "approved" ? "approved" : "pending", kyc });
  return (
    <form {...form} aria-label="User details" className="flex flex-col gap-4">
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
      <SelectField
        id="user-kyc"
        label="KYC status"
        errors={errors?.kyc}
        name="kyc"
        value={values.kyc}
        onChange={(e) => setValues((v) => ({ ...v, kyc: e.target.value as KycStatus }))}
        options={LABELS.kyc_status}
        values={KYC_STATUSES}
      />
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…">
        Save details
      </FormFooter>
    </form>
  );
}
