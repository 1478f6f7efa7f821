import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { LABELS } from "@/lib/labels";
import { LEDGER_KINDS, ledgerHref, type LedgerFilters } from "@/lib/account/ledger-filters";

/** Kind and month filters: a plain GET form, so the filter lives in the URL and works without script. */
export function LedgerFilterForm({ filters }: { filters: LedgerFilters }) {
  const filtered = filters.kind !== null || filters.month !== null;
  return (
    <form
      method="get"
      action="/account/credits"
      role="search"
      aria-label="Filter the history"
      className="flex flex-wrap items-end gap-4"
    >
      <Field id="ledger-kind" label="Kind" className="w-52">
        {(control) => (
          <Select {...control} name="kind" defaultValue={filters.kind ?? ""}>
            <option value="">All kinds</option>
            {LEDGER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {LABELS.ledger_kind[kind]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field id="ledger-month" label="Month" hint="As YYYY-MM" className="w-52">
        {(control) => (
          <Input
            {...control}
            type="month"
            name="month"
            defaultValue={filters.month ?? ""}
            min="2000-01"
            max="2099-12"
          />
        )}
      </Field>
      <div className="flex gap-2 pb-5">
        <button type="submit" className={buttonClasses("primary", "md")}>
          Show
        </button>
        {filtered ? (
          <Link href={ledgerHref({ kind: null, month: null })} className={buttonClasses("ghost", "md")}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}
