import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Competitions", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminCompetitionsPage() {
  return (
    <AdminPlaceholder path="/admin/competitions" title="Competitions">
      <p>
        It will list competitions by state and let you create, edit, publish and cancel them, record postal entries and
        download the entries as CSV.
      </p>
    </AdminPlaceholder>
  );
}
