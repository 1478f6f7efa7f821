import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Winners", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminWinnersPage() {
  return (
    <AdminPlaceholder path="/admin/competitions/winners" title="Winners">
      <p>
        It will track each prize from awaiting claim to verified to delivered, with the winner&apos;s choice of prize or
        cash, notes and the proof of delivery.
      </p>
    </AdminPlaceholder>
  );
}
