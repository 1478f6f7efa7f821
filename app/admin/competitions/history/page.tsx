import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Competition history", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminCompetitionHistoryPage() {
  return (
    <AdminPlaceholder path="/admin/competitions/history" title="Competition history">
      <p>It will list finished competitions with their revenue and prize cost.</p>
    </AdminPlaceholder>
  );
}
