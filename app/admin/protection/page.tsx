import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { ShieldCheck } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { flagDetailsText, flagKindLabel } from "@/lib/protections/flag-text";
import { ReviewFlagForm } from "@/components/admin/protection/review-flag-form";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { listPlayerFlags } from "@/lib/data/admin-protection";
import { formatDateTime } from "@/lib/format";
import { LABELS } from "@/lib/labels";

export const metadata: Metadata = { title: "Player protection", robots: { index: false } };

/**
 * The player-protection review queue (code of practice 1.6, 1.7): the flags the database raised (reading the
 * queue raises any new ones first), each reviewed with a note and, where needed, an intervention; then the
 * latest reviewed flags.
 */
export default async function AdminProtectionPage() {
  await requireAdmin("/admin/protection");
  const [open, reviewed] = await Promise.all([listPlayerFlags("open"), listPlayerFlags("reviewed", 25)]);
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/protection" />
        <PageHeader
          title="Player protection"
          description="Flags the database raises when play may be causing harm: a monthly limit reached, three requests to raise a limit in 30 days, top-ups over £1,000 in 24 hours, a top-up of £100 or more within a day of a break ending. Review each with a note; record an intervention where needed."
        />
      </div>

      <section aria-labelledby="queue-heading" className="flex flex-col gap-4">
        <h2 id="queue-heading" className="text-lg font-semibold">
          Review queue ({open.length})
        </h2>
        {open.length === 0 ? (
          <EmptyState icon={<ShieldCheck />} title="No flags waiting for review." />
        ) : (
          <ol className="flex flex-col gap-4">
            {open.map((flag) => {
              // Unique per flag (a form is a landmark): the player, the kind and when it was raised.
              const label = `${flag.user.name}, ${flagKindLabel(flag.kind)}, raised ${formatDateTime(flag.raised_at)}`;
              return (
                <li key={flag.id}>
                  <Card>
                    <CardHeader>
                      <h3 className="text-base font-semibold">
                        <Link
                          href={`/admin/users/${flag.user.id}`}
                          className="text-primary-text underline underline-offset-4"
                        >
                          {flag.user.name}
                        </Link>
                        {": "}
                        {flagKindLabel(flag.kind)}
                      </h3>
                      <p className="text-sm text-muted-foreground">
                        {flag.user.email ?? "No e-mail"} · raised{" "}
                        <time dateTime={flag.raised_at}>{formatDateTime(flag.raised_at)}</time>
                      </p>
                    </CardHeader>
                    <CardContent className="flex flex-col gap-4">
                      <p className="text-sm">{flagDetailsText(flag)}</p>
                      <ReviewFlagForm
                        flagId={flag.id}
                        label={label}
                        interventions={["note", "contacted", "restricted"]}
                      />
                    </CardContent>
                  </Card>
                </li>
              );
            })}
          </ol>
        )}
      </section>

      <section aria-labelledby="reviewed-heading" className="flex flex-col gap-3">
        <h2 id="reviewed-heading" className="text-lg font-semibold">
          Recently reviewed
        </h2>
        <DataTable
          cards
          caption="Reviewed flags, latest first"
          captionHidden
          rows={reviewed}
          rowKey={(flag) => flag.id}
          empty={<p className="text-muted-foreground">No flag has been reviewed yet.</p>}
          columns={[
            {
              header: "Player",
              cell: (flag) => (
                <Link href={`/admin/users/${flag.user.id}`} className="font-medium underline-offset-4 hover:underline">
                  {flag.user.name}
                </Link>
              ),
            },
            {
              header: "Flag",
              cell: (flag) => (
                <>
                  {flagKindLabel(flag.kind)}
                  <span className="block text-xs text-muted-foreground">
                    raised <time dateTime={flag.raised_at}>{formatDateTime(flag.raised_at)}</time>
                  </span>
                </>
              ),
            },
            {
              header: "Reviewed",
              className: "whitespace-nowrap",
              cell: (flag) => (
                <>
                  {flag.reviewed_at ? (
                    <time dateTime={flag.reviewed_at}>{formatDateTime(flag.reviewed_at)}</time>
                  ) : null}
                  {flag.reviewed_by_name ? (
                    <span className="block text-xs text-muted-foreground">by {flag.reviewed_by_name}</span>
                  ) : null}
                </>
              ),
            },
            {
              header: "Note",
              className: "max-w-xs break-words whitespace-pre-line",
              cell: (flag) => flag.review_note,
            },
            {
              header: "Intervention",
              cell: (flag) => (flag.intervention_kind ? LABELS.intervention_kind[flag.intervention_kind] : "None"),
            },
          ]}
        />
      </section>
    </section>
  );
}
