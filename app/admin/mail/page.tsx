import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "Mail", robots: { index: false } };

// Listed in the admin sidebar; built later in issue 11. The layout and the proxy guard it already.
export default function AdminMailPage() {
  return (
    <AdminPlaceholder path="/admin/mail" title="Mail">
      <p>
        It will compose mail to a segment of players, preview it, send it through the mail adapter in batches and show
        the outbox. Marketing mail will only go to players who agreed to it and are not on a break or excluded.
      </p>
    </AdminPlaceholder>
  );
}
