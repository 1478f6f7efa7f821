import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Users", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminUsersPage() {
  return (
    <AdminPlaceholder path="/admin/users" title="Users">
      <p>
        It will search players by name or e-mail, filter them by role, approval, KYC status and review flags, and open
        each player&apos;s profile, balance, ledger, entries, activity, limits and interventions, with edits and credit
        adjustments that need a reason.
      </p>
      <p>Until then, new accounts are approved on the Approvals screen.</p>
    </AdminPlaceholder>
  );
}
