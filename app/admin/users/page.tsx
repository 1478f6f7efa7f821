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
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
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
      {page.rows.length === 0 ? (
        <EmptyState
          icon={<Users />}
          title={isFiltered(query) ? "No users match this search." : "Nobody has signed up yet."}
        />
      ) : (
        <Table cards>
          <TableCaption visuallyHidden>Users, newest first</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Name</TableHead>
              <TableHead>Role</TableHead>
              <TableHead>Approval</TableHead>
              <TableHead>KYC</TableHead>
              <TableHead className="text-right">Balance</TableHead>
              <TableHead>Joined</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {page.rows.map((user) => (
              <TableRow key={user.id}>
                <TableCell label="Name">
                  <Link href={`/admin/users/${user.id}`} className="font-medium underline-offset-4 hover:underline">
                    {user.name}
                  </Link>
                  {user.email ? <span className="block text-xs text-muted-foreground">{user.email}</span> : null}
                  {user.open_flags > 0 ? (
                    <Badge variant="warning" className="mt-1">
                      Flagged ({user.open_flags})
                    </Badge>
                  ) : null}
                </TableCell>
                <TableCell label="Role">
                  <RoleBadge role={user.role} />
                </TableCell>
                <TableCell label="Approval">
                  <ApprovalBadge state={user.approval} />
                </TableCell>
                <TableCell label="KYC">
                  <KycBadge status={user.kyc_status} />
                </TableCell>
                <TableCell label="Balance" className="text-right tabular-nums">
                  {formatGBP(user.credits)}
                </TableCell>
                <TableCell label="Joined" className="whitespace-nowrap">
                  <time dateTime={user.created_at}>{formatDate(user.created_at)}</time>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Pagination
        previousHref={previous}
        nextHref={next}
        words={{ previous: "Previous page", next: "Next page" }}
        label="Pages of users"
      />
    </section>
  );
}
