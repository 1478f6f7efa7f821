import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "./button";

/**
 * Page links for a list split over pages (links, so each page has its own URL and works without
 * script). Shows the first and last page, the current one and its neighbours, with gaps as "…".
 */
export function Pagination({
  page,
  pageCount,
  href,
  label = "Pagination",
}: {
  /** The current page, from 1. */
  page: number;
  pageCount: number;
  href: (page: number) => string;
  label?: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <StepLink target={page > 1 ? page - 1 : null} href={href}>
            <ChevronLeft aria-hidden />
            Previous
          </StepLink>
        </li>
        {pageWindow(page, pageCount).map((item, i) =>
          item === null ? (
            <li key={`gap-${i}`} aria-hidden className="px-2 text-muted-foreground">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                href={href(item)}
                aria-current={item === page ? "page" : undefined}
                className={buttonClasses(item === page ? "outline" : "ghost", "icon")}
              >
                <span className="sr-only">Page </span>
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          <StepLink target={page < pageCount ? page + 1 : null} href={href}>
            Next
            <ChevronRight aria-hidden />
          </StepLink>
        </li>
      </ul>
    </nav>
  );
}

/** "Previous"/"Next": a link, or, at either end, the same words shown as unavailable. */
function StepLink({
  target,
  href,
  children,
}: {
  target: number | null;
  href: (page: number) => string;
  children: React.ReactNode;
}) {
  if (target === null) {
    return (
      <span className="inline-flex h-10 items-center gap-2 px-4 text-sm font-medium text-muted-foreground [&_svg]:size-4">
        {children}
      </span>
    );
  }
  return (
    <Link href={href(target)} className={buttonClasses("ghost", "md")}>
      {children}
    </Link>
  );
}

/** Pages to show: 1, the current page ±1, the last page; null marks a gap. */
function pageWindow(page: number, pageCount: number): (number | null)[] {
  const shown = [...new Set([1, page - 1, page, page + 1, pageCount])]
    .filter((p) => p >= 1 && p <= pageCount)
    .sort((a, b) => a - b);
  const items: (number | null)[] = [];
  for (const p of shown) {
    const previous = items.at(-1);
    if (typeof previous === "number" && p - previous > 1) items.push(p - previous === 2 ? p - 1 : null);
    items.push(p);
  }
  return items;
}
