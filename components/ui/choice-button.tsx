import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * One of a row of choices that stay pressed once chosen (how many tickets, how many lucky-dip numbers): filled when
 * chosen, outlined when not, and `aria-pressed` says which, so the state is never colour alone.
 */
export function ChoiceButton({ pressed, className, ...props }: ComponentProps<"button"> & { pressed: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      className={cn(
        "h-10 min-w-12 rounded-md border px-3 text-sm font-semibold transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
        pressed ? "border-primary bg-primary text-primary-foreground" : "border-border bg-background hover:bg-accent",
        className,
      )}
      {...props}
    />
  );
}
