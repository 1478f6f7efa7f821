import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** What a field hands its control so the label, hint and error reach assistive technology. */
export type FieldControlProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

/**
 * A label, a control, an optional hint and the field's errors, wired together: the label points at the
 * control, the control is described by the hint and the errors and is marked invalid when there are
 * errors. The control is whatever `children` renders with the props it is given:
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
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({ id, "aria-describedby": describedBy, "aria-invalid": invalid ? true : undefined })}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {invalid ? (
        <p id={errorId} className="text-sm text-destructive">
          {errors!.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
