import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * A data table. Cells are left-aligned through the table, so a numeric column passes `text-right` without two
 * classes fighting over `text-align`.
 *
 * With `cards`, on a phone (below the `sm` breakpoint) the table becomes a list of cards: each row a card, each cell a line
 * with its column's name (the cell's `label`) beside the value, and the header row kept for screen readers
 * only. A cell without a label (the row's title, its actions) takes the whole line. Without `cards` the table
 * scrolls sideways on a narrow screen instead. The admin console's tables are cards.
 */
export function Table({ className, cards = false, ...props }: ComponentProps<"table"> & { cards?: boolean }) {
  return (
    <div className={cn("w-full", cards ? "sm:overflow-x-auto" : "overflow-x-auto")}>
      <table
        data-cards={cards ? "" : undefined}
        className={cn(
          "w-full text-left text-sm",
          cards &&
            "max-sm:block max-sm:[&_tbody]:flex max-sm:[&_tbody]:flex-col max-sm:[&_tbody]:gap-3 max-sm:[&_thead]:sr-only max-sm:[&>tbody>tr]:block max-sm:[&>tbody>tr]:rounded-lg max-sm:[&>tbody>tr]:border max-sm:[&>tbody>tr]:border-border max-sm:[&>tbody>tr]:bg-card max-sm:[&>tbody>tr]:p-3",
          className,
        )}
        {...props}
      />
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
      className={cn(
        visuallyHidden ? "sr-only" : "caption-bottom pt-2 text-sm text-muted-foreground max-sm:block",
        className,
      )}
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

/**
 * `label` is the column's name, shown beside the value when the table is a card on a phone (and nowhere
 * else: the header row says it on wider screens).
 */
export function TableCell({ className, label, ...props }: ComponentProps<"td"> & { label?: string }) {
  return (
    <td
      data-label={label}
      className={cn(
        "py-2 pr-4 align-top last:pr-0",
        // The card's line: the value on the right, the label floated to its left, long values wrapping below it
        // (anywhere, so a long unbroken value such as an e-mail or JSON cannot widen the card).
        "[[data-cards]_&]:max-sm:flow-root [[data-cards]_&]:max-sm:py-1 [[data-cards]_&]:max-sm:pr-0 [[data-cards]_&]:max-sm:wrap-anywhere",
        label
          ? "[[data-cards]_&]:max-sm:text-right [[data-cards]_&]:max-sm:before:float-left [[data-cards]_&]:max-sm:before:mr-4 [[data-cards]_&]:max-sm:before:text-left [[data-cards]_&]:max-sm:before:font-medium [[data-cards]_&]:max-sm:before:text-muted-foreground [[data-cards]_&]:max-sm:before:content-[attr(data-label)]"
          : "[[data-cards]_&]:max-sm:text-left",
        className,
      )}
      {...props}
    />
  );
}
