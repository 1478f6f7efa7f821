import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

/**
 * Newer / Older links for a list read newest first by keyset (a cursor in the URL, not a page
 * number): the credit history, the admin activity log, the outbox. Renders nothing when there is
 * only one page.
 */
export function NewerOlderPagination({
  newerHref,
  olderHref,
  label,
}: {
  newerHref: string | null;
  olderHref: string | null;
  /** The landmark's name, e.g. "Pages of history". */
  label: string;
}) {
  if (!newerHref && !olderHref) return null;
  return (
    <nav aria-label={label} className="flex justify-between gap-4">
      {newerHref ? (
        <Link href={newerHref} className={buttonClasses("outline", "md")}>
          Newer
        </Link>
      ) : (
        <span />
      )}
      {olderHref ? (
        <Link href={olderHref} className={buttonClasses("outline", "md")}>
          Older
        </Link>
      ) : null}
    </nav>
  );
}
