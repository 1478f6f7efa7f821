"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import type { FieldErrors } from "@/lib/actions/result";
import {
  COMPETITION_LIMITS,
  FURTHER_PRIZE_FIELDS,
  furtherPrizeField,
  type FurtherPrizeField,
} from "@/lib/competitions/competition-fields";
import { ordinal } from "@/lib/format";

/** A prize after the first as the form holds it: text, money in pounds as typed. */
export type FurtherPrizeValues = Record<FurtherPrizeField, string>;

/** One row of the list: `id` keeps each row's inputs (and what was typed in them) when another row goes. */
export type FurtherPrizeRow = { id: number; initial: FurtherPrizeValues };

const EMPTY_PRIZE: FurtherPrizeValues = { description: "", value: "", cash_alternative: "" };

/**
 * The prizes after the first (2nd, 3rd… up to 10 in all), drawn in order from the same draw. Each row's fields are
 * named by its position (prize_2_description…) and the count goes with them, so a removed prize is simply not
 * sent. With `termsLocked` (tickets given) the number of prizes and their values are fixed: the values are sent
 * as they are, shown disabled, and only the descriptions can change.
 */
export function FurtherPrizes({
  rows,
  onChange,
  nextId,
  termsLocked,
  hint,
  errors,
}: {
  rows: FurtherPrizeRow[];
  onChange: (rows: FurtherPrizeRow[]) => void;
  /** A new row's id, never used before. */
  nextId: () => number;
  termsLocked: boolean;
  hint?: ReactNode;
  /** The last refusal's messages, without those of a row that has moved since (withoutMovedPrizes). */
  errors?: FieldErrors;
}) {
  // After adding or removing a row, focus goes where the next step is: the new description, or the add button.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const full = 1 + rows.length >= COMPETITION_LIMITS.prizes.max;
  const add = () => {
    focusNext.current = `field-${furtherPrizeField(rows.length + 2, "description")}`;
    onChange([...rows, { id: nextId(), initial: EMPTY_PRIZE }]);
  };
  const remove = (id: number) => {
    focusNext.current = "add-further-prize";
    onChange(rows.filter((row) => row.id !== id));
  };

  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="mb-2 text-lg font-semibold">More prizes</legend>
      <input type="hidden" name="prize_count" value={1 + rows.length} />
      <p className="text-sm text-muted-foreground">
        {hint ??
          (termsLocked
            ? "Tickets have been given, so how many prizes there are and what each is worth are fixed. Their descriptions can still change."
            : `Optional. Drawn in order after the 1st prize from the same draw, no ticket winning twice: up to ${COMPETITION_LIMITS.prizes.max} prizes in all.`)}
      </p>
      {rows.length === 0 ? null : (
        <ol className="flex flex-col gap-4">
          {rows.map((row, i) => {
            const position = i + 2;
            const prize = `${ordinal(position)} prize`;
            const name = (field: FurtherPrizeField) => furtherPrizeField(position, field);
            // A fixed value is sent as it is from a hidden input; the one shown is disabled, so it is not sent twice.
            const money = (field: Exclude<FurtherPrizeField, "description">, label: string, help: string) => (
              <Field id={`field-${name(field)}`} label={label} hint={help} errors={errors?.[name(field)]}>
                {(control) => (
                  <>
                    <Input
                      {...control}
                      name={termsLocked ? undefined : name(field)}
                      defaultValue={row.initial[field]}
                      inputMode="decimal"
                      disabled={termsLocked}
                    />
                    {termsLocked ? <input type="hidden" name={name(field)} value={row.initial[field]} /> : null}
                  </>
                )}
              </Field>
            );
            return (
              <li key={row.id} className="flex flex-col gap-4 rounded-lg border border-border p-4">
                <Field
                  id={`field-${name("description")}`}
                  label={`${prize} description`}
                  hint="What the winner gets, up to 2,000 characters."
                  errors={errors?.[name("description")]}
                >
                  {(control) => (
                    <Textarea {...control} name={name("description")} rows={2} defaultValue={row.initial.description} />
                  )}
                </Field>
                <div className="grid gap-4 sm:grid-cols-2">
                  {money("value", `${prize} value (£)`, "In pounds, e.g. 250 or 249.99.")}
                  {money(
                    "cash_alternative",
                    `${prize} cash alternative (£, optional)`,
                    "The cash the winner may take instead.",
                  )}
                </div>
                {termsLocked ? null : (
                  <div>
                    <Button type="button" variant="quietDestructive" size="sm" onClick={() => remove(row.id)}>
                      <X aria-hidden />
                      Remove<span className="sr-only"> the {prize}</span>
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {termsLocked ? null : (
        <div className="flex flex-wrap items-center gap-3">
          <Button id="add-further-prize" type="button" variant="outline" size="sm" onClick={add} disabled={full}>
            <Plus aria-hidden />
            Add a prize
          </Button>
          {full ? (
            <span className="text-sm text-muted-foreground">
              {COMPETITION_LIMITS.prizes.max} prizes is the most a competition can have.
            </span>
          ) : null}
        </div>
      )}
    </fieldset>
  );
}

/** Each row's position in the list of prizes (the first further prize is the 2nd), by row id. */
export function prizePositions(rows: FurtherPrizeRow[]): ReadonlyMap<number, number> {
  return new Map(rows.map((row, i) => [row.id, i + 2]));
}

/**
 * A refusal's messages without those about a further prize that is no longer at the position the refusal named
 * ("the 3rd prize's value"): removing a prize moves the ones below it up, and their messages would then describe
 * another prize. `refusedAt` is prizePositions of the rows as they were when the refusal came back.
 */
export function withoutMovedPrizes(
  errors: FieldErrors,
  rows: FurtherPrizeRow[],
  refusedAt: ReadonlyMap<number, number>,
): FieldErrors {
  const moved = new Set<string>();
  for (let position = 2; position <= COMPETITION_LIMITS.prizes.max; position++) {
    const row = rows[position - 2];
    if (row && refusedAt.get(row.id) === position) continue;
    for (const field of FURTHER_PRIZE_FIELDS) moved.add(furtherPrizeField(position, field));
  }
  return Object.fromEntries(Object.entries(errors).filter(([key]) => !moved.has(key)));
}
