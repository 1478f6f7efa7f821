import type { Metadata } from "next";
import { AdminPlaceholder } from "@/components/admin/admin-placeholder";

export const metadata: Metadata = { title: "LabSpinner", robots: { index: false } };

// Issue 11 item 10: a placeholder until the wheel exists.
export default function AdminLabSpinnerPage() {
  return (
    <AdminPlaceholder
      path="/admin/labspinner"
      title="LabSpinner"
      arrives="The LabSpinner editor arrives with the wheel, which is not built yet."
    >
      <p>
        It will set the wheel&apos;s segments (label, colour, prize in credits or nothing, and weight), publish the odds
        of each, switch the wheel on or off, and record postal spin requests.
      </p>
    </AdminPlaceholder>
  );
}
