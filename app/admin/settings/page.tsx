import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Settings", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminSettingsPage() {
  return (
    <AdminPlaceholder path="/admin/settings" title="Settings">
      <p>
        It will change the approval mode, top-up limits and bonus tiers, the credit-card cap, the stamp price and postal
        window, the large-adjustment threshold, the launch countdown, the spinner switch, the complaints contact and the
        dispute-resolution body, each change recorded in the activity log.
      </p>
    </AdminPlaceholder>
  );
}
