import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

/**
 * Previous / Next for a list read by keyset (a cursor in the URL rather than a page number, so a
 * 1,000,000-row list pages as fast at the end as at the start). At either end the word is shown as
 * unavailable, as in the numbered Pagination.
 */
export function KeysetPagination({
  previousHref,
  nextHref,
  label = "Pages",
}: {
  previousHref: string | null;
  nextHref: string | null;
  label?: string;
}) {
  if (!previousHref && !nextHref) return null;
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <Step href={previousHref}>
            <ChevronLeft aria-hidden />
            Previous
          </Step>
        </li>
        <li>
          <Step href={nextHref}>
            Next
            <ChevronRight aria-hidden />
          </Step>
        </li>
      </ul>
    </nav>
  );
}

function Step({ href, children }: { href: string | null; children: React.ReactNode }) {
  if (!href) {
    return (
      <span className="inline-flex h-10 items-center gap-2 px-4 text-sm font-medium text-muted-foreground [&_svg]:size-4">
        {children}
      </span>
    );
  }
  return (
    <Link href={href} className={buttonClasses("ghost", "md")}>
      {children}
    </Link>
  );
}
