import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { ActivityFilter } from "@/lib/data/admin-console";
import { activityHref, activityKindLabel, isFiltered } from "@/lib/activity/filters";

/** Every recorded action grouped by family (the part before the first dot), each family selectable whole. */
function kindGroups(kinds: string[]): { family: string; actions: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const action of kinds) {
    const family = action.split(".")[0];
    groups.set(family, [...(groups.get(family) ?? []), action]);
  }
  return [...groups].map(([family, actions]) => ({ family, actions }));
}

/** Actor, kind, subject and dates: a plain GET form, so the filter lives in the URL and works without script. */
export function ActivityFilterForm({ filter, kinds }: { filter: ActivityFilter; kinds: string[] }) {
  // A kind in the URL that nothing has recorded yet still shows as chosen.
  const unlisted = filter.kind && !kinds.includes(filter.kind) && !kinds.some((k) => k.startsWith(`${filter.kind}.`));
  return (
    <form
      method="get"
      action="/admin/activity"
      role="search"
      aria-label="Filter the activity"
      className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3"
    >
      <Field id="activity-actor" label="Actor" hint="Who did it: name, e-mail or id">
        {(control) => <Input {...control} name="actor" defaultValue={filter.actor ?? ""} maxLength={200} />}
      </Field>
      <Field id="activity-kind" label="Kind">
        {(control) => (
          <Select {...control} name="kind" defaultValue={filter.kind ?? ""}>
            <option value="">All kinds</option>
            {unlisted ? <option value={filter.kind!}>{activityKindLabel(filter.kind!)}</option> : null}
            {kindGroups(kinds).map(({ family, actions }) => (
              <optgroup key={family} label={activityKindLabel(family)}>
                <option value={family}>{activityKindLabel(family)}: all</option>
                {actions.map((action) => (
                  <option key={action} value={action}>
                    {activityKindLabel(action)}
                  </option>
                ))}
              </optgroup>
            ))}
          </Select>
        )}
      </Field>
      <Field id="activity-subject" label="Subject" hint="What it was about: name, e-mail, title, reference or id">
        {(control) => <Input {...control} name="subject" defaultValue={filter.subject ?? ""} maxLength={200} />}
      </Field>
      <Field id="activity-from" label="From" hint="First day, UK time">
        {(control) => (
          <Input
            {...control}
            type="date"
            name="from"
            defaultValue={filter.from ?? ""}
            min="2000-01-01"
            max="2999-12-31"
          />
        )}
      </Field>
      <Field id="activity-to" label="To" hint="Last day, included">
        {(control) => (
          <Input {...control} type="date" name="to" defaultValue={filter.to ?? ""} min="2000-01-01" max="2999-12-31" />
        )}
      </Field>
      <div className="flex items-start gap-2 sm:pt-6">
        <button type="submit" className={buttonClasses("primary", "md")}>
          Show
        </button>
        {isFiltered(filter) ? (
          <Link
            href={activityHref({ actor: null, kind: null, subject: null, from: null, to: null })}
            className={buttonClasses("ghost", "md")}
          >
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}
