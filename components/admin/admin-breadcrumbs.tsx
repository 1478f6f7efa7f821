import { Link } from "@/components/ui/link";
import { ChevronRight } from "lucide-react";
import { dashboardNav } from "@/config/nav";
import { underPrefix } from "@/lib/auth/paths";

export type Crumb = { label: string; href?: string };

/**
 * The trail to an admin page: every admin section whose path the page lies under, shallowest first
 * (Dashboard › Competitions › Competition history), then `extra` for what the sections do not name
 * (a user's name on /admin/users/{id}). The last crumb is the current page.
 */
export function adminTrail(path: string, extra: Crumb[] = []): Crumb[] {
  const sections = dashboardNav.admin
    .filter((section) => underPrefix(path, section.href))
    .sort((a, b) => a.href.length - b.href.length)
    .map((section) => ({ label: section.label, href: section.href }));
  return [...sections, ...extra];
}

/** Breadcrumbs for the admin page at `path` (a section's href), with `extra` crumbs below it. */
export function AdminBreadcrumbs({ path, extra = [] }: { path: string; extra?: Crumb[] }) {
  const trail = adminTrail(path, extra);
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm text-muted-foreground">
      <ol className="flex flex-wrap items-center gap-1.5">
        {trail.map((crumb, i) => {
          const last = i === trail.length - 1;
          return (
            <li key={`${crumb.label}-${i}`} className="flex items-center gap-1.5">
              {i > 0 ? <ChevronRight aria-hidden className="size-3.5" /> : null}
              {crumb.href && !last ? (
                <Link href={crumb.href} className="underline-offset-4 hover:text-foreground hover:underline">
                  {crumb.label}
                </Link>
              ) : (
                <span aria-current={last ? "page" : undefined} className={last ? "text-foreground" : undefined}>
                  {crumb.label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
