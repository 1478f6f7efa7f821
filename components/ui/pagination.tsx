import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "@/components/ui/link";
import { buttonClasses } from "./button";

/**
 * The one pager: Previous / Next links for a list read by keyset (a cursor in the URL rather than a page
 * number, so a 1,000,000-row list pages as fast at the end as at the start). Links, so each page has its own
 * URL and works without script; at either end the word is shown as unavailable. Lists read newest first name
 * the two "Newer" and "Older". Renders nothing when there is only one page.
 */
export function Pagination({
  previousHref,
  nextHref,
  label,
  words = { previous: "Previous", next: "Next" },
}: {
  previousHref: string | null;
  nextHref: string | null;
  /** The landmark's name, e.g. "Pages of history". */
  label: string;
  words?: { previous: string; next: string };
}) {
  if (!previousHref && !nextHref) return null;
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap items-center justify-between gap-1">
        <li>
          <Step href={previousHref}>
            <ChevronLeft aria-hidden />
            {words.previous}
          </Step>
        </li>
        <li>
          <Step href={nextHref}>
            {words.next}
            <ChevronRight aria-hidden />
          </Step>
        </li>
      </ul>
    </nav>
  );
}

/** Words the lists read newest first use. */
export const NEWER_OLDER = { previous: "Newer", next: "Older" } as const;

function Step({ href, children }: { href: string | null; children: React.ReactNode }) {
  if (!href) {
    return (
      <span className="inline-flex h-10 items-center gap-2 px-4 text-sm font-medium text-muted-foreground [&_svg]:size-4">
        {children}
      </span>
    );
  }
  return (
    <Link href={href} className={buttonClasses("outline", "md")}>
      {children}
    </Link>
  );
}
