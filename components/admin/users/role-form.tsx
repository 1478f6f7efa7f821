"use client";

import { useState } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { SelectField } from "@/components/ui/field";
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
      <SelectField
        id="user-role"
        label="Role"
        hint="Admins run the console; super admins also manage roles, large adjustments and deletion. A new admin is approved too."
        errors={errors?.role}
        name="role"
        value={value}
        onChange={(e) => setValue(e.target.value as UserRole)}
        options={LABELS.user_role}
        values={USER_ROLES}
      />
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Changing…">
        Change role
      </FormFooter>
    </form>
  );
}
