import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { APPROVAL_STATES, KYC_STATUSES, USER_ROLES, type UserFilter } from "@/lib/data/admin-users-options";
import { isFiltered } from "@/lib/users/user-filters";
import { LABELS } from "@/lib/labels";

/** Search and filters: a plain GET form, so the filter lives in the URL and works without script. */
export function UsersFilterForm({ filter }: { filter: UserFilter }) {
  return (
    <form
      method="get"
      action="/admin/users"
      role="search"
      aria-label="Filter the users"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-6"
    >
      <Field id="users-search" label="Search" hint="Name or e-mail" className="xl:col-span-2">
        {(control) => <Input {...control} type="search" name="q" defaultValue={filter.search ?? ""} maxLength={200} />}
      </Field>
      <SelectField
        id="users-role"
        label="Role"
        name="role"
        defaultValue={filter.role ?? ""}
        options={LABELS.user_role}
        values={USER_ROLES}
        blank="All roles"
      />
      <SelectField
        id="users-approval"
        label="Approval"
        name="approval"
        defaultValue={filter.approval ?? ""}
        options={LABELS.approval_state}
        values={APPROVAL_STATES}
        blank="Any approval"
      />
      <SelectField
        id="users-kyc"
        label="KYC status"
        name="kyc"
        defaultValue={filter.kyc ?? ""}
        options={LABELS.kyc_status}
        values={KYC_STATUSES}
        blank="Any KYC status"
      />
      <Field id="users-flagged" label="Flags">
        {(control) => (
          <Select {...control} name="flagged" defaultValue={filter.flagged ? "yes" : ""}>
            <option value="">Any</option>
            <option value="yes">Flagged for review</option>
          </Select>
        )}
      </Field>
      <div className="flex items-start gap-2 xl:col-span-6">
        <button type="submit" className={buttonClasses("primary", "md")}>
          Show
        </button>
        {isFiltered(filter) ? (
          <Link href="/admin/users" className={buttonClasses("ghost", "md")}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}
