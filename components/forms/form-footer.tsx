import type { ReactNode } from "react";
import type { ButtonProps } from "@/components/ui/button";
import type { ActionResult } from "@/lib/actions/result";
import { FormStatus } from "./form-status";
import { SubmitButton } from "./submit-button";

/**
 * A form's last lines: its status (`FormStatus`), then its submit button on a line of its own at the button's
 * width. `result`, `formErrors` and `pending` are useFormAction's.
 */
export function FormFooter({
  result,
  formErrors,
  pending,
  pendingLabel,
  variant,
  size,
  children,
}: {
  result: ActionResult<unknown> | null;
  formErrors?: string[];
  pending?: boolean;
  pendingLabel: string;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
  children: ReactNode;
}) {
  return (
    <>
      <FormStatus result={result} formErrors={formErrors} />
      <div>
        <SubmitButton pending={pending} pendingLabel={pendingLabel} variant={variant} size={size}>
          {children}
        </SubmitButton>
      </div>
    </>
  );
}
