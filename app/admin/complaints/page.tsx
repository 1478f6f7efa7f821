import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Complaints", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminComplaintsPage() {
  return (
    <AdminPlaceholder path="/admin/complaints" title="Complaints">
      <p>
        It will be the complaints queue: each complaint&apos;s reference, status and response deadlines, with overdue
        ones highlighted, and the answer sent to the player.
      </p>
    </AdminPlaceholder>
  );
}
