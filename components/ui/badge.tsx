import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

const variants = {
  primary: "border-primary/30 bg-primary-soft text-primary-text",
  neutral: "border-border bg-muted text-foreground",
  outline: "border-border bg-background text-foreground",
  info: "border-info/30 bg-info-soft text-info-soft-foreground",
  success: "border-success/30 bg-success-soft text-success-soft-foreground",
  warning: "border-warning/40 bg-warning-soft text-warning-soft-foreground",
  destructive: "border-destructive/30 bg-destructive-soft text-destructive-soft-foreground",
} as const;

const sizes = {
  sm: "px-2 py-0.5 text-xs",
  md: "px-3 py-1 text-sm",
} as const;

export type BadgeVariant = keyof typeof variants;
export type BadgeSize = keyof typeof sizes;

/** For an element that is not a <span> (a <p> result line, a <Link>). */
export function badgeClasses(variant: BadgeVariant = "primary", size: BadgeSize = "sm", className?: string) {
  return cn("inline-flex items-center rounded-full border font-semibold", variants[variant], sizes[size], className);
}

export function Badge({
  variant,
  size,
  className,
  ...props
}: ComponentProps<"span"> & { variant?: BadgeVariant; size?: BadgeSize }) {
  return <span className={badgeClasses(variant, size, className)} {...props} />;
}
