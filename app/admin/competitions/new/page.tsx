import type { Metadata } from "next";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { CompetitionForm, EMPTY_COMPETITION } from "@/components/admin/competitions/competition-form";
import { PageHeader } from "@/components/ui/page-header";
import { createCompetitionAction } from "@/lib/actions/admin-competitions";
import { requireAdmin } from "@/lib/auth/session";

export const metadata: Metadata = { title: "New competition", robots: { index: false } };

export default async function NewCompetitionPage() {
  await requireAdmin("/admin/competitions/new");
  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/competitions" extra={[{ label: "New competition" }]} />
        <PageHeader
          title="New competition"
          description="Saved as a draft: nothing is public until you publish it from its page."
        />
      </div>
      <CompetitionForm
        action={createCompetitionAction}
        values={EMPTY_COMPETITION}
        label="New competition"
        submitLabel="Save draft"
        pendingLabel="Saving…"
      />
    </section>
  );
}
