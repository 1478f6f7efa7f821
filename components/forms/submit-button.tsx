"use client";

import { useFormStatus } from "react-dom";
import { buttonClasses, type ButtonProps } from "@/components/ui/button";

/**
 * A form's submit button, disabled with `pendingLabel` while the form is being sent: `pending` from
 * useFormAction, or the form's own status for a form whose action React runs.
 */
export function SubmitButton({
  children,
  pendingLabel,
  pending: sending,
  variant = "primary",
  size = "md",
}: {
  children: React.ReactNode;
  pendingLabel: string;
  pending?: boolean;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
}) {
  const status = useFormStatus();
  const pending = sending || status.pending;
  return (
    <button type="submit" disabled={pending} aria-disabled={pending} className={buttonClasses(variant, size)}>
      {pending ? pendingLabel : children}
    </button>
  );
}
