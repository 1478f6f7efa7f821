"use client";

import { useFormStatus } from "react-dom";
import { buttonClasses, type ButtonProps } from "@/components/ui/button";

/**
 * A form's submit button, disabled with `pendingLabel` while the form is being sent: `pending` from
 * useFormAction, or the form's own status for a form whose action React runs. In a form with two ways to send it,
 * each button's `name` and `value` go with the form when it is the one pressed; `onClick` tells the form which.
 */
export function SubmitButton({
  children,
  pendingLabel,
  pending: sending,
  variant = "primary",
  size = "md",
  name,
  value,
  onClick,
}: {
  children: React.ReactNode;
  pendingLabel: string;
  pending?: boolean;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
  name?: string;
  value?: string;
  onClick?: () => void;
}) {
  const status = useFormStatus();
  const pending = sending || status.pending;
  return (
    <button
      type="submit"
      name={name}
      value={value}
      onClick={onClick}
      disabled={pending}
      aria-disabled={pending}
      className={buttonClasses(variant, size)}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
