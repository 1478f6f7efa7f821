import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Users } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { ApprovalBadge, KycBadge, RoleBadge } from "@/components/admin/users/user-badges";
import {
  isFiltered,
  nextUsersHref,
  parseUsersQuery,
  previousUsersHref,
  USERS_PAGE_SIZE,
  type SearchParams,
} from "@/lib/users/user-filters";
import { UsersFilterForm } from "@/components/admin/users/users-filter-form";
import { IgnoredFilters } from "@/components/forms/ignored-filters";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { DataTable } from "@/components/ui/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { listUsers } from "@/lib/data/admin-users";
import { formatDate, formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Users", robots: { index: false } };

export default async function AdminUsersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin("/admin/users");
  const { query, ignored } = parseUsersQuery(await searchParams);
  const page = await listUsers(query, query.cursor, USERS_PAGE_SIZE);
  const previous = previousUsersHref(query);
  const next = nextUsersHref(query, page.next_cursor);
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/users" />
        <PageHeader
          title="Users"
          description="Every account, newest first. “Flagged” marks a player with a protection flag awaiting review."
        />
      </div>
      <UsersFilterForm filter={query} />
      <IgnoredFilters notes={ignored} />

      <DataTable
        cards
        caption="Users, newest first"
        captionHidden
        rows={page.rows}
        rowKey={(user) => user.id}
        empty={
          <EmptyState
            icon={<Users />}
            title={isFiltered(query) ? "No users match this search." : "Nobody has signed up yet."}
          />
        }
        columns={[
          {
            header: "Name",
            cell: (user) => (
              <>
                <Link href={`/admin/users/${user.id}`} className="font-medium underline-offset-4 hover:underline">
                  {user.name}
                </Link>
                {user.email ? <span className="block text-xs text-muted-foreground">{user.email}</span> : null}
                {user.open_flags > 0 ? (
                  <Badge variant="warning" className="mt-1">
                    Flagged ({user.open_flags})
                  </Badge>
                ) : null}
              </>
            ),
          },
          { header: "Role", cell: (user) => <RoleBadge role={user.role} /> },
          { header: "Approval", cell: (user) => <ApprovalBadge state={user.approval} /> },
          { header: "KYC", cell: (user) => <KycBadge status={user.kyc_status} /> },
          { header: "Balance", numeric: true, cell: (user) => formatGBP(user.credits) },
          {
            header: "Joined",
            className: "whitespace-nowrap",
            cell: (user) => <time dateTime={user.created_at}>{formatDate(user.created_at)}</time>,
          },
        ]}
      />
      <Pagination
        previousHref={previous}
        nextHref={next}
        words={{ previous: "Previous page", next: "Next page" }}
        label="Pages of users"
      />
    </section>
  );
}
