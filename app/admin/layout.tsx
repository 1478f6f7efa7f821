import { DashboardShell } from "@/components/layout/dashboard-shell";
import { requireAdmin } from "@/lib/auth/session";

// Guard twice: the proxy answers non-admins with 403; check again here (and SQL a third time).
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  await requireAdmin("/admin");
  return <DashboardShell area="admin">{children}</DashboardShell>;
}
