import type { Metadata } from "next";
import { ApprovalActions } from "@/components/admin/approval-actions";
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
      <h1 className="text-2xl font-bold">Approvals</h1>
      {outcome && (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900 dark:bg-green-950 dark:text-green-100">
          {outcome}
        </p>
      )}
      {pending.length === 0 ? (
        <p>No accounts are waiting for approval.</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {pending.map((account) => (
            <li key={account.id} className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2 dark:border-slate-700">
              <div>
                <h2 className="font-semibold">{account.name}</h2>
                <p className="text-sm">{account.email}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  Signed up {formatDateTime(account.created_at)}
                  {account.date_of_birth ? ` · born ${formatDate(account.date_of_birth)}` : ""}
                </p>
              </div>
              <ApprovalActions userId={account.id} name={account.name} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
