import { cn } from "@/lib/utils";

/** Tickets sold out of the total, as an accessible progress bar with its figures. */
export function TicketProgress({
  sold,
  total,
  className,
  size = "md",
}: {
  sold: number;
  total: number;
  className?: string;
  size?: "sm" | "md";
}) {
  const percent = total > 0 ? Math.min(100, (sold / total) * 100) : 0;
  const text = `${sold.toLocaleString("en-GB")} of ${total.toLocaleString("en-GB")} tickets sold`;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">
          {sold.toLocaleString("en-GB")} / {total.toLocaleString("en-GB")} sold
        </span>
        <span className="text-muted-foreground">{Math.floor(percent)}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Tickets sold"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={sold}
        aria-valuetext={text}
        className={cn(
          "overflow-hidden rounded-full bg-muted ring-1 ring-border ring-inset",
          size === "sm" ? "h-2" : "h-3",
        )}
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
