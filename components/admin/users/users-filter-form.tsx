import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
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
      <Field id="users-role" label="Role">
        {(control) => (
          <Select {...control} name="role" defaultValue={filter.role ?? ""}>
            <option value="">All roles</option>
            {USER_ROLES.map((role) => (
              <option key={role} value={role}>
                {LABELS.user_role[role]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="users-approval" label="Approval">
        {(control) => (
          <Select {...control} name="approval" defaultValue={filter.approval ?? ""}>
            <option value="">Any approval</option>
            {APPROVAL_STATES.map((state) => (
              <option key={state} value={state}>
                {LABELS.approval_state[state]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="users-kyc" label="KYC status">
        {(control) => (
          <Select {...control} name="kyc" defaultValue={filter.kyc ?? ""}>
            <option value="">Any KYC status</option>
            {KYC_STATUSES.map((status) => (
              <option key={status} value={status}>
                {LABELS.kyc_status[status]}
              </option>
            ))}
          </Select>
        )}
      </Field>
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
