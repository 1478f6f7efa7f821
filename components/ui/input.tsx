import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * The look every text control shares. Horizontal padding is left to each control (a password input
 * keeps room for its toggle), so no two classes ever set the same property.
 */
export const controlClasses =
  "w-full rounded-md border border-input bg-card py-2 text-base text-card-foreground outline-hidden placeholder:text-muted-foreground focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive disabled:cursor-not-allowed disabled:opacity-60";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(controlClasses, "px-3", className)} {...props} />;
}
