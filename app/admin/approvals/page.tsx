import type { Metadata } from "next";
import { UserCheck } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { ApprovalActions } from "@/components/admin/approval-actions";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { listPendingApprovals } from "@/lib/data/admin";
import { formatDate, formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Approvals", robots: { index: false } };

export default async function ApprovalsPage({
  searchParams,
}: {
  searchParams: Promise<{ approved?: string; rejected?: string }>;
}) {
  await requireAdmin("/admin/approvals");
  const [pending, done] = await Promise.all([listPendingApprovals(), searchParams]);
  const outcome = done.approved
    ? `Approved ${done.approved}. We have e-mailed them.`
    : done.rejected
      ? `Rejected ${done.rejected}. They will see your reason.`
      : null;
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/approvals" />
        <PageHeader title="Approvals" />
      </div>
      {outcome && <Alert variant="success">{outcome}</Alert>}
      {pending.length === 0 ? (
        <EmptyState icon={<UserCheck />} title="No accounts are waiting for approval." />
      ) : (
        <ul className="flex flex-col gap-4">
          {pending.map((account) => (
            <li key={account.id}>
              <Card className="grid gap-4 p-4 sm:grid-cols-2">
                <div>
                  <h2 className="font-semibold">{account.name}</h2>
                  <p className="text-sm">{account.email}</p>
                  <p className="text-sm text-muted-foreground">
                    Signed up {formatDateTime(account.created_at)}
                    {account.date_of_birth ? ` · born ${formatDate(account.date_of_birth)}` : ""}
                  </p>
                </div>
                <ApprovalActions userId={account.id} name={account.name} email={account.email} />
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
