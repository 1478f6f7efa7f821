import type { Metadata } from "next";
import { UserCheck } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { ApprovalActions } from "@/components/admin/approval-actions";
import { ApprovalModeForm } from "@/components/admin/users/approval-mode-form";
import { BULK_FORM_ID, BulkApproveForm } from "@/components/admin/users/bulk-approve-form";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Checkbox } from "@/components/ui/checkbox";
import { requireAdmin } from "@/lib/auth/session";
import { getApprovalMode, listPendingApprovals } from "@/lib/data/approvals";
import { formatDate, formatDateTime } from "@/lib/format";
import { ageOn } from "@/lib/validation/auth";

export const metadata: Metadata = { title: "Approvals", robots: { index: false } };

export default async function ApprovalsPage({
  searchParams,
}: {
  searchParams: Promise<{ approved?: string; rejected?: string; bulk?: string; skipped?: string }>;
}) {
  await requireAdmin("/admin/approvals");
  const [pending, mode, done] = await Promise.all([listPendingApprovals(), getApprovalMode(), searchParams]);
  const outcome = done.approved
    ? `Approved ${done.approved}. We have e-mailed them.`
    : done.rejected
      ? `Rejected ${done.rejected}. They will see your reason.`
      : done.bulk
        ? bulkOutcome(Number(done.bulk) || 0, Number(done.skipped) || 0)
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
        <>
          <BulkApproveForm waiting={pending.length} />
          <ul className="flex flex-col gap-4">
            {pending.map((account) => (
              <li key={account.id}>
                <Card className="grid gap-4 p-4 sm:grid-cols-2">
                  <div>
                    <label className="mb-2 flex items-center gap-2 text-sm">
                      <Checkbox
                        name="userIds"
                        value={account.id}
                        form={BULK_FORM_ID}
                        aria-label={`Select ${account.name}${account.email ? ` (${account.email})` : ""}`}
                      />
                      Select
                    </label>
                    <h2 className="font-semibold">{account.name}</h2>
                    <p className="text-sm">{account.email}</p>
                    <p className="text-sm text-muted-foreground">
                      Signed up {formatDateTime(account.created_at)}
                      {account.date_of_birth ? ` · ${ageWords(account.date_of_birth)}` : ""}
                    </p>
                  </div>
                  <ApprovalActions userId={account.id} name={account.name} email={account.email} />
                </Card>
              </li>
            ))}
          </ul>
        </>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Approval mode</CardTitle>
        </CardHeader>
        <CardContent>
          <ApprovalModeForm mode={mode} />
        </CardContent>
      </Card>
    </section>
  );
}

/** "aged 34 (born 14 March 1992)": the age decides, the date lets it be checked against a document. */
function ageWords(dateOfBirth: string): string {
  const age = ageOn(dateOfBirth);
  return `${age === null ? "age unknown" : `aged ${age}`} (born ${formatDate(dateOfBirth)})`;
}

function bulkOutcome(approved: number, skipped: number): string {
  const people = approved === 1 ? "1 account" : `${approved} accounts`;
  const rest = skipped
    ? ` ${skipped === 1 ? "1 was" : `${skipped} were`} no longer waiting and left as they were.`
    : "";
  return `Approved ${people}. We have e-mailed them.${rest}`;
}
