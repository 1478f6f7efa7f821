"use client";

import { useFormStatus } from "react-dom";
import { buttonClasses } from "@/components/ui/button";

export function SubmitButton({ children, pendingLabel }: { children: React.ReactNode; pendingLabel: string }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending} aria-disabled={pending} className={buttonClasses("primary", "md")}>
      {pending ? pendingLabel : children}
    </button>
  );
}
