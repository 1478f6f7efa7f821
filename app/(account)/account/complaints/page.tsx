import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { ComplaintForm } from "@/components/complaints/complaint-form";
import { MyComplaints } from "@/components/complaints/my-complaints";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { getMyComplaints } from "@/lib/data/complaints";
import { getSiteSettings } from "@/lib/data/settings";

export const metadata: Metadata = { title: "Complaints", robots: { index: false } };

// Any signed-in account may complain, approved or not, on a break or excluded: /account is exempt from the
// approval redirect, and submit_complaint asks only for a signed-in user.
export default async function MyComplaintsPage() {
  await requireUser("/account/complaints");
  const [complaints, settings] = await Promise.all([getMyComplaints(), getSiteSettings()]);
  return (
    <section className="flex max-w-3xl flex-col gap-8">
      <PageHeader
        title="Complaints"
        description={
          <>
            We acknowledge every complaint within 2 working days and send our final answer within 28 days.{" "}
            <Link href="/complaints" className="font-medium text-primary-text underline underline-offset-4">
              How complaints work
            </Link>
          </>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>Make a complaint</CardTitle>
          <CardDescription>
            You get a reference number at once and a confirmation by e-mail. You can also e-mail{" "}
            <a href={`mailto:${settings.complaints_contact}`} className="underline underline-offset-4">
              {settings.complaints_contact}
            </a>
            .
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ComplaintForm contact={settings.complaints_contact} />
        </CardContent>
      </Card>
      <section aria-labelledby="my-complaints" className="flex flex-col gap-4">
        <h2 id="my-complaints" className="text-xl font-semibold">
          Your complaints
        </h2>
        <MyComplaints complaints={complaints} />
      </section>
    </section>
  );
}
