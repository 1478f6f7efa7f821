import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * A data table that scrolls sideways on narrow screens. Cells are left-aligned through the table, so a
 * numeric column passes `text-right` without two classes fighting over `text-align`.
 */
export function Table({ className, ...props }: ComponentProps<"table">) {
  return (
    <div className="w-full overflow-x-auto">
      <table className={cn("w-full text-left text-sm", className)} {...props} />
    </div>
  );
}

/** `visuallyHidden` keeps the caption for screen readers only (when the heading above says it already). */
export function TableCaption({
  className,
  visuallyHidden = false,
  ...props
}: ComponentProps<"caption"> & { visuallyHidden?: boolean }) {
  return (
    <caption
      className={cn(visuallyHidden ? "sr-only" : "caption-bottom pt-2 text-sm text-muted-foreground", className)}
      {...props}
    />
  );
}

export function TableHeader(props: ComponentProps<"thead">) {
  return <thead {...props} />;
}

export function TableBody(props: ComponentProps<"tbody">) {
  return <tbody {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("border-b border-border", className)} {...props} />;
}

export function TableHead({ className, scope = "col", ...props }: ComponentProps<"th">) {
  return (
    <th scope={scope} className={cn("py-2 pr-4 font-medium text-muted-foreground last:pr-0", className)} {...props} />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td className={cn("py-2 pr-4 align-top last:pr-0", className)} {...props} />;
}
