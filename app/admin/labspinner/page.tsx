import type { Metadata } from "next";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import {
  LiveWheelSection,
  ObservedSection,
  PostalRequestsSection,
  VersionsSection,
} from "@/components/admin/spinner/spinner-sections";
import { WheelEditor } from "@/components/admin/spinner/wheel-editor";
import { segmentRow } from "@/lib/spinner/wheel-fields";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { getAdminSpinner } from "@/lib/data/admin-spinner";

export const metadata: Metadata = { title: "LabSpinner", robots: { index: false } };

// The wheel and its postal route: its segments and odds, on/off, observed spins against the odds,
// the versions, and the postal requests. Every change is audited by the SQL.
export default async function AdminLabSpinnerPage() {
  await requireAdmin("/admin/labspinner");
  const data = await getAdminSpinner();
  return (
    <section className="flex flex-col gap-8">
      <div>
        <AdminBreadcrumbs path="/admin/labspinner" />
        <PageHeader
          title="LabSpinner"
          description="The prize wheel: its segments and published odds, whether it is on, how the spins have fallen, and the free postal route. Every change is in the activity log."
        />
      </div>
      <LiveWheelSection data={data} />
      <Card>
        <CardHeader>
          <CardTitle>Edit the wheel</CardTitle>
          <CardDescription>
            Saving makes a new version of the wheel, which applies to spins after this change only: spins already made
            keep the version they used. Each label needs a contrast of at least 4.5:1 on its colour. 2 to 16 segments;
            the odds of a segment are its weight over the total weight.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <WheelEditor initial={data.wheel.segments.map(segmentRow)} />
        </CardContent>
      </Card>
      <ObservedSection data={data} />
      <VersionsSection data={data} />
      <PostalRequestsSection data={data} />
    </section>
  );
}
