"use client";

import { useActionState, useState } from "react";
import { FormStatus } from "@/components/forms/form-status";
import { SubmitButton } from "@/components/forms/submit-button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { changeUserRole } from "@/lib/actions/admin-users";
import { USER_ROLES, type UserRole } from "@/lib/data/admin-users-options";
import { ROLE_LABELS } from "./user-filters";

/** Super admins only (the page renders it only for them; the action and the SQL check again). */
export function RoleForm({ userId, role }: { userId: string; role: UserRole }) {
  const [result, action] = useActionState(changeUserRole, null);
  const [value, setValue] = useState<UserRole>(role);
  return (
    <form action={action} aria-label="Role" className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="userId" value={userId} />
      <Field
        id="user-role"
        label="Role"
        hint="Admins run the console; super admins also manage roles, large adjustments and deletion. A new admin is approved too."
        errors={result && !result.ok ? result.fieldErrors?.role : undefined}
      >
        {(control) => (
          <Select {...control} name="role" value={value} onChange={(e) => setValue(e.target.value as UserRole)}>
            {USER_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <FormStatus result={result} />
      <div>
        <SubmitButton pendingLabel="Changing…">Change role</SubmitButton>
      </div>
    </form>
  );
}
