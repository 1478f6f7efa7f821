"use client";

import { useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { changeUserRole } from "@/lib/actions/admin-users";
import { USER_ROLES, type UserRole } from "@/lib/data/admin-users-options";
import { LABELS } from "@/lib/labels";

/** Super admins only (the page renders it only for them; the action and the SQL check again). */
export function RoleForm({ userId, role }: { userId: string; role: UserRole }) {
  const { result, errors, formErrors, pending, form } = useFormAction(changeUserRole);
  const [value, setValue] = useState<UserRole>(role);
  return (
    <form {...form} aria-label="Role" className="flex flex-col gap-4">
      <input type="hidden" name="userId" value={userId} />
      <Field
        id="user-role"
        label="Role"
        hint="Admins run the console; super admins also manage roles, large adjustments and deletion. A new admin is approved too."
        errors={errors?.role}
      >
        {(control) => (
          <Select {...control} name="role" value={value} onChange={(e) => setValue(e.target.value as UserRole)}>
            {USER_ROLES.map((r) => (
              <option key={r} value={r}>
                {LABELS.user_role[r]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <FormStatus result={result} formErrors={formErrors} />
      <div>
        <SubmitButton pending={pending} pendingLabel="Changing…">
          Change role
        </SubmitButton>
      </div>
    </form>
  );
}
