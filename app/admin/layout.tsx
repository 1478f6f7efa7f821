import { OpsAlertNotice } from "@/components/admin/system/ops-alert-notice";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { requireAdmin } from "@/lib/auth/session";

// Guard twice: the proxy answers non-admins with 403; check again here (and SQL a third time).
// Super admins see the open operations alerts above every admin page.
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const account = await requireAdmin("/admin");
  return (
    <DashboardShell area="admin">
      {account.role === "super_admin" ? <OpsAlertNotice /> : null}
      {children}
    </DashboardShell>
  );
}
