import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

export function Badge({ className, ...props }: ComponentProps<"span">) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full border border-primary/30 bg-primary-soft px-2 py-0.5 text-xs font-semibold text-primary-text",
        className,
      )}
      {...props}
    />
  );
}
