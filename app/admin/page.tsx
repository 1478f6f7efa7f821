import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Admin dashboard", robots: { index: false } };

export default async function AdminPage() {
  const admin = await requireAdmin("/admin");
  return (
    <section className="flex flex-col gap-4">
      <PageHeader title="Admin dashboard" />
      <p>
        Signed in as {admin.name} ({admin.role === "super_admin" ? "super admin" : "admin"}). The admin screens (users,
        approvals, competitions, mail, settings, activity, LabSpinner) are being built; approvals already work through
        the database functions.
      </p>
    </section>
  );
}
