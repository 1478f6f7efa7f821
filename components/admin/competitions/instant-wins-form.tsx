"use client";

import { FormFooter } from "@/components/forms/form-footer";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { setInstantWinPrizesAction } from "@/lib/actions/admin-competitions";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { ENUM_VALUES, LABELS, type EnumValue } from "@/lib/labels";

type Prize = { kind: EnumValue<"instant_win_kind">; title: string; credit_amount: number | null; quantity: number };

const ROWS = 5;

/**
 * A draft's instant-win prizes, in the order their winning numbers are dealt: up to five rows of a kind
 * (credit, a LabSpinner spin, or a physical prize to deliver), a title, the credit amount and how many.
 * A row with no kind is left out. SQL refuses more winning numbers than tickets.
 */
export function InstantWinsForm({ competitionId, prizes }: { competitionId: string; prizes: Prize[] }) {
  const { result, formErrors, pending, form } = useFormAction(setInstantWinPrizesAction);
  return (
    <form {...form} className="flex flex-col gap-4" aria-label="Instant wins">
      <input type="hidden" name="id" value={competitionId} />
      {Array.from({ length: ROWS }, (_, i) => {
        const p = prizes[i];
        return (
          <fieldset key={i} className="grid gap-2 sm:grid-cols-4">
            <legend className="sr-only">Instant-win prize {i + 1}</legend>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Prize {i + 1} kind
              <Select name="kind" defaultValue={p?.kind ?? ""}>
                <option value="">None</option>
                {ENUM_VALUES.instant_win_kind.map((kind) => (
                  <option key={kind} value={kind}>
                    {LABELS.instant_win_kind[kind]}
                  </option>
                ))}
              </Select>
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Title
              <Input name="title" defaultValue={p?.title ?? ""} maxLength={120} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              Credit (£, credit only)
              <Input name="amount" inputMode="decimal" defaultValue={p?.credit_amount ?? ""} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              How many
              <Input name="count" inputMode="numeric" defaultValue={p?.quantity ?? ""} />
            </label>
          </fieldset>
        );
      })}
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…">
        Save instant wins
      </FormFooter>
    </form>
  );
}
