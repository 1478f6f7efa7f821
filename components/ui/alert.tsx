import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

const variants = {
  info: "border-info/30 bg-info-soft text-info-soft-foreground",
  success: "border-success/30 bg-success-soft text-success-soft-foreground",
  warning: "border-warning/40 bg-warning-soft text-warning-soft-foreground",
  destructive: "border-destructive/30 bg-destructive-soft text-destructive-soft-foreground",
} as const;

export type AlertVariant = keyof typeof variants;

/**
 * A notice in the flow of the page. A destructive one is an `alert` (announced at once, for errors);
 * the others are a polite `status`. `announce={false}` drops the live role, for a notice that is part
 * of the page rather than news (one a control points at with aria-describedby, say).
 */
export function Alert({
  variant = "info",
  announce = true,
  className,
  ...props
}: ComponentProps<"div"> & { variant?: AlertVariant; announce?: boolean }) {
  return (
    <div
      role={announce ? (variant === "destructive" ? "alert" : "status") : undefined}
      className={cn("rounded-md border p-3 text-sm", variants[variant], className)}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: ComponentProps<"p">) {
  return <p className={cn("font-semibold", className)} {...props} />;
}
