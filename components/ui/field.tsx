import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/utils";
import { Checkbox } from "./checkbox";
import { Select } from "./select";

/** What a field hands its control so the label, hint and error reach assistive technology. */
export type FieldControlProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

/**
 * The control's wiring for a field `id`: described by its hint and its error, invalid when it has an error.
 * A field shows one message, the first (an action keeps one per field: lib/actions/result.ts `invalid`).
 */
function wiring(id: string, hint: ReactNode, errors: string[] | undefined) {
  const error = errors?.[0];
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const control: FieldControlProps = { id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined };
  const hintText = hint ? (
    <p id={hintId} className="text-xs text-muted-foreground">
      {hint}
    </p>
  ) : null;
  const errorText = error ? (
    <p id={errorId} className="text-sm text-destructive">
      {error}
    </p>
  ) : null;
  return { control, hintText, errorText };
}

/**
 * A label, a control, an optional hint and the field's error, wired together: the label points at the
 * control, the control is described by the hint and the error and is marked invalid when there is one.
 * The control is whatever `children` renders with the props it is given:
 * `<Field id="field-email" label="E-mail">{(control) => <Input {...control} name="email" />}</Field>`.
 */
export function Field({
  id,
  label,
  hint,
  errors,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const { control, hintText, errorText } = wiring(id, hint, errors);
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children(control)}
      {hintText}
      {errorText}
    </div>
  );
}

/** A tick box with its label beside it, then its hint and error, wired like `Field`'s control. */
export function CheckboxField({
  id,
  label,
  hint,
  errors,
  className,
  ...input
}: Omit<ComponentProps<"input">, "type" | "id"> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
}) {
  const { control, hintText, errorText } = wiring(id, hint, errors);
  return (
    <div className={cn("flex items-start gap-2", className)}>
      <Checkbox className="mt-1" {...control} {...input} />
      <div className="flex flex-col gap-0.5">
        <label htmlFor={id} className="text-sm">
          {label}
        </label>
        {hintText}
        {errorText}
      </div>
    </div>
  );
}

/**
 * A `Field` whose control is a `Select` with one option a value: `options` maps each value to its words (an
 * enum's entry in lib/labels.ts, say), offered in `values`' order when given (a subset), else in the map's.
 * `blank` puts a first option with the empty value ("All roles", "None"). The other props go to the <select>.
 */
export function SelectField<Value extends string>({
  id,
  label,
  hint,
  errors,
  className,
  options,
  values,
  blank,
  ...select
}: Omit<ComponentProps<"select">, "id" | "children" | "className"> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: string[];
  className?: string;
  options: Readonly<Record<Value, ReactNode>>;
  values?: readonly Value[];
  blank?: string;
}) {
  return (
    <Field id={id} label={label} hint={hint} errors={errors} className={className}>
      {(control) => (
        <Select {...control} {...select}>
          {blank === undefined ? null : <option value="">{blank}</option>}
          {(values ?? (Object.keys(options) as Value[])).map((value) => (
            <option key={value} value={value}>
              {options[value]}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}
