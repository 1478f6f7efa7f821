import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * The one tick box: a native checkbox (it posts with the form, works without script and is announced as
 * one) in the theme's accent colour. Put it beside a label, or use `CheckboxField` (components/ui/field.tsx)
 * for one with a hint and an error.
 */
export function Checkbox({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  return <input type="checkbox" className={cn("size-4 shrink-0 accent-primary", className)} {...props} />;
}
