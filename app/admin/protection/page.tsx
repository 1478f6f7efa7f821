import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Player protection", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminProtectionPage() {
  return (
    <AdminPlaceholder path="/admin/protection" title="Player protection">
      <p>
        It will show the players the database flags for review (a monthly limit reached, repeated requests to raise a
        limit, large or rapid top-ups, a large top-up just after a break) and keep an intervention record per player:
        notes, contact, restrictions and closure.
      </p>
    </AdminPlaceholder>
  );
}
