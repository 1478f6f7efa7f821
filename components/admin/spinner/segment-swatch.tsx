import { cn } from "@/lib/utils";

/** A segment's label drawn in its label colour on its colour, as the wheel shows it. */
export function SegmentSwatch({
  label,
  colour,
  labelColour,
  className,
}: {
  label: string;
  colour: string;
  labelColour: string;
  className?: string;
}) {
  return (
    <span
      className={cn(
        "inline-flex min-h-7 items-center rounded-md border border-border px-2 text-sm font-semibold",
        className,
      )}
      style={{ backgroundColor: colour, color: labelColour }}
    >
      {label}
    </span>
  );
}
