"use client";

import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { FormFooter } from "@/components/forms/form-footer";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { saveWheel } from "@/lib/actions/admin-spinner";
import type { ActionResult } from "@/lib/actions/result";
import { contrastRatio, formatContrast, MIN_CONTRAST } from "@/lib/spinner/contrast";
import { SegmentSwatch } from "./segment-swatch";
import { formatOdds, formatPerSpin } from "@/lib/spinner/format";
import {
  LABEL_COLOUR_NAMES,
  LABEL_COLOURS,
  MAX_SEGMENTS,
  MIN_SEGMENTS,
  segmentFieldKey,
  segmentIssues,
  type LabelColour,
  type SegmentRow,
} from "@/lib/spinner/wheel-fields";

type Row = SegmentRow & { key: number };

const NEW_ROW: SegmentRow = { label: "", colour: "#1d4ed8", labelColour: "#ffffff", prize: "0.00", weight: "1" };
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/**
 * The preview of the odds and the expected prize per spin, worked out here from the form as it is typed. Display
 * only: what is saved is worked out by SQL, and the live wheel above shows its figures once saved. Null where a
 * weight or a prize is not valid yet.
 */
function preview(rows: SegmentRow[]) {
  const usable = rows.map((row, i) => {
    const bad = new Set(segmentIssues(row, i + 1).map(([field]) => field));
    return {
      weight: bad.has("weight") ? null : Number(row.weight),
      prize: bad.has("prize_credits") ? null : Number(row.prize),
    };
  });
  const weights = usable.map((u) => u.weight);
  const total = weights.every((w) => w !== null) ? weights.reduce<number>((sum, w) => sum + w!, 0) : null;
  const odds = weights.map((w) => (total === null || w === null ? null : w / total));
  const expectedPrize =
    total === null || usable.some((u) => u.prize === null)
      ? null
      : usable.reduce((sum, u) => sum + u.prize! * u.weight!, 0) / total;
  return { total, odds, expectedPrize };
}

/**
 * The wheel's segments as rows (2 to 16): label, colour, label colour, prize and weight, with a live preview of
 * each label's contrast and each segment's odds. Saving makes a new wheel version (admin_update_spinner_wheel).
 * A refusal lands on its field, from zod or from SQL; one about the whole list sits under it.
 */
export function WheelEditor({ initial }: { initial: SegmentRow[] }) {
  const { result, errors: placed, formErrors, pending, form } = useFormAction(saveWheel);
  const [rows, setRows] = useState<Row[]>(() => initial.map((row, key) => ({ ...row, key })));
  const nextKey = useRef(initial.length);
  // Field messages name positions: once rows are added, removed or moved they would sit on the wrong row, so
  // they are hidden until the next save.
  const [staleResult, setStaleResult] = useState<ActionResult<unknown> | null>(null);
  const errors = result !== staleResult ? placed : undefined;
  const { total, odds, expectedPrize } = preview(rows);

  const update = (key: number, patch: Partial<SegmentRow>) =>
    setRows((all) => all.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const restructure = (next: (all: Row[]) => Row[]) => {
    setRows(next);
    setStaleResult(result);
  };
  const move = (index: number, by: -1 | 1) =>
    restructure((all) => {
      const next = [...all];
      [next[index], next[index + by]] = [next[index + by], next[index]];
      return next;
    });
  const remove = (key: number) => restructure((all) => all.filter((row) => row.key !== key));
  const add = () => restructure((all) => [...all, { ...NEW_ROW, key: nextKey.current++ }]);
  const reset = () => restructure(() => initial.map((row) => ({ ...row, key: nextKey.current++ })));

  return (
    <form {...form} aria-label="Wheel segments" className="flex flex-col gap-4">
      <ol className="flex flex-col gap-4">
        {rows.map((row, index) => {
          const position = index + 1;
          const id = (field: string) => `wheel-segment-${row.key}-${field}`;
          // Each row's messages have their own key (the control names repeat down the list).
          const errorKey = (field: Parameters<typeof segmentFieldKey>[1]) => ({
            "data-error-key": segmentFieldKey(position, field),
          });
          const fieldErrors = (field: Parameters<typeof segmentFieldKey>[1]) =>
            errors?.[segmentFieldKey(position, field)];
          const ratio = contrastRatio(row.colour.trim(), row.labelColour);
          return (
            <li key={row.key}>
              <fieldset className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4 text-card-foreground">
                <legend className="px-1 text-sm font-semibold">Segment {position}</legend>
                <div className="grid grid-cols-2 gap-3 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,2fr)_minmax(12rem,1.2fr)_minmax(0,1fr)_minmax(0,1fr)]">
                  <Field
                    id={id("label")}
                    label="Label"
                    errors={fieldErrors("label")}
                    className="col-span-2 lg:col-span-1"
                  >
                    {(control) => (
                      <Input
                        {...control}
                        name="label"
                        {...errorKey("label")}
                        value={row.label}
                        onChange={(e) => update(row.key, { label: e.target.value })}
                        autoComplete="off"
                      />
                    )}
                  </Field>
                  <Field
                    id={id("colour")}
                    label="Colour"
                    hint="Hex, such as #1d4ed8"
                    errors={fieldErrors("colour")}
                    className="col-span-2 lg:col-span-1"
                  >
                    {(control) => (
                      <div className="flex gap-2">
                        <input
                          type="color"
                          aria-label={`Pick segment ${position}'s colour`}
                          value={HEX_COLOUR.test(row.colour.trim()) ? row.colour.trim().toLowerCase() : "#000000"}
                          onChange={(e) => update(row.key, { colour: e.target.value })}
                          className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-card p-1"
                        />
                        <Input
                          {...control}
                          name="colour"
                          {...errorKey("colour")}
                          value={row.colour}
                          onChange={(e) => update(row.key, { colour: e.target.value })}
                          autoComplete="off"
                          spellCheck={false}
                          className="font-mono"
                        />
                      </div>
                    )}
                  </Field>
                  <Field
                    id={id("label-colour")}
                    label="Label colour"
                    errors={fieldErrors("label_colour")}
                    className="col-span-2 lg:col-span-1"
                  >
                    {(control) => (
                      <Select
                        {...control}
                        name="labelColour"
                        {...errorKey("label_colour")}
                        value={row.labelColour}
                        onChange={(e) => update(row.key, { labelColour: e.target.value as LabelColour })}
                      >
                        {LABEL_COLOURS.map((colour) => (
                          <option key={colour} value={colour}>
                            {LABEL_COLOUR_NAMES[colour]} ({colour})
                          </option>
                        ))}
                      </Select>
                    )}
                  </Field>
                  <Field
                    id={id("prize")}
                    label="Prize (credits)"
                    hint="0 for no prize"
                    errors={fieldErrors("prize_credits")}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        name="prize"
                        {...errorKey("prize_credits")}
                        inputMode="decimal"
                        value={row.prize}
                        onChange={(e) => update(row.key, { prize: e.target.value })}
                        autoComplete="off"
                      />
                    )}
                  </Field>
                  <Field id={id("weight")} label="Weight" errors={fieldErrors("weight")}>
                    {(control) => (
                      <Input
                        {...control}
                        name="weight"
                        {...errorKey("weight")}
                        inputMode="numeric"
                        value={row.weight}
                        onChange={(e) => update(row.key, { weight: e.target.value })}
                        autoComplete="off"
                      />
                    )}
                  </Field>
                </div>
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
                    <SegmentSwatch
                      label={row.label.trim() || "Label"}
                      colour={ratio === null ? "transparent" : row.colour.trim()}
                      labelColour={ratio === null ? "inherit" : row.labelColour}
                    />
                    <span className={ratio !== null && ratio < MIN_CONTRAST ? "font-semibold text-destructive" : ""}>
                      {ratio === null
                        ? "Contrast: give a hex colour to see it"
                        : ratio < MIN_CONTRAST
                          ? `Contrast ${formatContrast(ratio)}:1, below ${MIN_CONTRAST}:1: saving will be refused`
                          : `Contrast ${formatContrast(ratio)}:1 (at least ${MIN_CONTRAST}:1 needed)`}
                    </span>
                    <span>Odds {odds[index] === null ? "not known yet" : formatOdds(odds[index]!)}</span>
                  </p>
                  <div className="flex gap-2">
                    <Button
                      type="button"
                      variant="outline"
                      size="icon"
                      aria-label={`Move segment ${position} up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      <ArrowUp aria-hidden />
                    </Button>
                    <Button
                      type="button"
                      variant="outline"
                      size="icon"
                      aria-label={`Move segment ${position} down`}
                      disabled={index === rows.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      <ArrowDown aria-hidden />
                    </Button>
                    <Button
                      type="button"
                      variant="outline"
                      size="icon"
                      aria-label={`Remove segment ${position}`}
                      disabled={rows.length <= MIN_SEGMENTS}
                      onClick={() => remove(row.key)}
                    >
                      <Trash2 aria-hidden />
                    </Button>
                  </div>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap gap-3">
        <Button type="button" variant="outline" onClick={add} disabled={rows.length >= MAX_SEGMENTS}>
          <Plus aria-hidden />
          Add a segment
        </Button>
        <Button type="button" variant="ghost" onClick={reset}>
          Start again from the live wheel
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">
        Preview of this form, worked out in your browser: {rows.length} segments
        {rows.length > MAX_SEGMENTS ? ` (at most ${MAX_SEGMENTS})` : ""}, total weight{" "}
        {total === null ? "not known yet" : total.toLocaleString("en-GB")}, expected prize per spin{" "}
        {expectedPrize === null ? "not known yet" : formatPerSpin(expectedPrize)}. Once saved, the live wheel above
        shows the database&apos;s figures.
      </p>
      <FormFooter result={result} formErrors={formErrors} pending={pending} pendingLabel="Saving…">
        Save as a new version
      </FormFooter>
    </form>
  );
}
