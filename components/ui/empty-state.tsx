import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** What a list shows when it has nothing in it: an icon, a line, an optional explanation and actions. */
export function EmptyState({
  icon,
  title,
  description,
  children,
  className,
}: {
  icon?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  /** Actions (links styled with `buttonClasses`). */
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("rounded-2xl border border-dashed border-border px-6 py-12 text-center", className)}>
      {icon ? (
        <div aria-hidden className="mb-4 flex justify-center text-muted-foreground [&_svg]:size-10">
          {icon}
        </div>
      ) : null}
      <p className="text-lg font-semibold">{title}</p>
      {description ? <p className="mx-auto mt-2 max-w-md text-muted-foreground">{description}</p> : null}
      {children ? <div className="mt-6 flex flex-wrap justify-center gap-3">{children}</div> : null}
    </div>
  );
}
