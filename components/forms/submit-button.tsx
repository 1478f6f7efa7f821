"use client";

import { useFormStatus } from "react-dom";
import { buttonClasses, type ButtonProps } from "@/components/ui/button";

export function SubmitButton({
  children,
  pendingLabel,
  variant = "primary",
}: {
  children: React.ReactNode;
  pendingLabel: string;
  variant?: ButtonProps["variant"];
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending} aria-disabled={pending} className={buttonClasses(variant, "md")}>
      {pending ? pendingLabel : children}
    </button>
  );
}
