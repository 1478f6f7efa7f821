import type { Metadata } from "next";
import { Download, ScrollText } from "lucide-react";
import { ActivityFilterForm } from "@/components/admin/activity-filter-form";
import {
  ACTIVITY_PAGE_SIZE,
  activityCsvHref,
  isFiltered,
  newerActivityHref,
  olderActivityHref,
  parseActivityQuery,
  type SearchParams,
} from "@/lib/activity/filters";
import { ActivityTable } from "@/components/admin/activity-table";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { IgnoredFilters } from "@/components/forms/ignored-filters";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { listActivity } from "@/lib/data/admin-console";
import { NEWER_OLDER, Pagination } from "@/components/ui/pagination";

export const metadata: Metadata = { title: "Activity", robots: { index: false } };

export default async function AdminActivityPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin("/admin/activity");
  const { query, ignored } = parseActivityQuery(await searchParams);
  const page = await listActivity(query, query.before, ACTIVITY_PAGE_SIZE);
  const newer = newerActivityHref(query);
  const older = olderActivityHref(query, page.next_before);
  const filtered = isFiltered(query);
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/activity" />
        <PageHeader
          title="Activity"
          description="Every admin action and the key events of players, newest first."
          actions={
            <a href={activityCsvHref(query)} className={buttonClasses("outline", "md")} download>
              <Download aria-hidden />
              Download CSV
            </a>
          }
        />
      </div>
      <ActivityFilterForm filter={query} kinds={page.kinds} />
      <IgnoredFilters notes={ignored} />
      {page.rows.length === 0 ? (
        <EmptyState
          icon={<ScrollText />}
          title={filtered ? "No activity matches this filter." : "No activity has been recorded yet."}
        />
      ) : (
        <ActivityTable rows={page.rows} />
      )}
      <Pagination previousHref={newer} nextHref={older} words={NEWER_OLDER} label="Pages of activity" />
    </section>
  );
}
