import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** Label and value pairs as a description list, in a responsive grid. */
export function FigureList({
  items,
  className,
}: {
  items: [label: ReactNode, value: ReactNode][];
  className?: string;
}) {
  return (
    <dl className={cn("grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-3", className)}>
      {items.map(([label, value], i) => (
        <div key={i} className="flex flex-col gap-0.5">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
