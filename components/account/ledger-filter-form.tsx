import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
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
      <SelectField
        id="ledger-kind"
        label="Kind"
        className="w-52"
        name="kind"
        defaultValue={filters.kind ?? ""}
        options={LABELS.ledger_kind}
        values={LEDGER_KINDS}
        blank="All kinds"
      />
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
