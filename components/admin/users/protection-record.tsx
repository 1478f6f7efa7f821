import { Link } from "@/components/ui/link";
import { flagDetailsText, flagKindLabel } from "@/lib/protections/flag-text";
import { InterventionForm } from "@/components/admin/protection/intervention-form";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { type InterventionKind, type PlayerProtectionRecord } from "@/lib/data/admin-protection";
import { formatDateTime } from "@/lib/format";
import { LABELS } from "@/lib/labels";

/**
 * A player's protection record on /admin/users/{id} (code of practice 1.6, 1.7): the restriction if any, the
 * flags the database raised and their reviews, the interventions, and the form to record one.
 */
export function ProtectionRecordSection({
  userId,
  record,
  closed,
  deleted,
}: {
  userId: string;
  record: PlayerProtectionRecord;
  closed: boolean;
  deleted: boolean;
}) {
  const restricted = record.restricted_at !== null;
  const kinds: InterventionKind[] = [
    "note",
    "contacted",
    restricted ? "lifted" : "restricted",
    ...(closed ? [] : (["closed"] as const)),
  ];
  return (
    <section aria-labelledby="protection-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="protection-heading" className="text-lg font-semibold">
          Flags and interventions
        </h2>
        <Link href="/admin/protection" className="text-sm underline underline-offset-4">
          Review queue
        </Link>
      </div>
      {restricted ? (
        <Alert variant="warning" announce={false}>
          Play is restricted since {formatDateTime(record.restricted_at!)}: top-ups and entries are refused and no
          marketing mail is sent until the restriction is lifted.
        </Alert>
      ) : null}

      <DataTable
        cards
        caption="Flags raised for this player, newest first"
        captionHidden
        rows={record.flags}
        rowKey={(flag) => flag.id}
        empty={<p className="text-muted-foreground">The database has raised no flags for this player.</p>}
        columns={[
          {
            header: "Raised",
            className: "whitespace-nowrap",
            cell: (flag) => <time dateTime={flag.raised_at}>{formatDateTime(flag.raised_at)}</time>,
          },
          {
            header: "Flag",
            cell: (flag) => (
              <>
                {flagKindLabel(flag.kind)}
                <span className="block text-xs text-muted-foreground">{flagDetailsText(flag)}</span>
              </>
            ),
          },
          {
            header: "Status",
            cell: (flag) => (
              <Badge variant={flag.status === "open" ? "warning" : "success"}>
                {flag.status === "open" ? "Awaiting review" : "Reviewed"}
              </Badge>
            ),
          },
          {
            header: "Review",
            className: "max-w-xs break-words",
            cell: (flag) =>
              flag.status === "reviewed" ? (
                <>
                  <span className="whitespace-pre-line">{flag.review_note}</span>
                  <span className="block text-xs text-muted-foreground">
                    {flag.reviewed_by_name ? `by ${flag.reviewed_by_name}, ` : ""}
                    {flag.reviewed_at ? formatDateTime(flag.reviewed_at) : ""}
                  </span>
                </>
              ) : (
                <Link href="/admin/protection" className="underline underline-offset-4">
                  Review it in the queue
                </Link>
              ),
          },
        ]}
      />

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Interventions</CardTitle>
          </CardHeader>
          <CardContent>
            {record.interventions.length === 0 ? (
              <p className="text-sm text-muted-foreground">None recorded.</p>
            ) : (
              <ol className="flex flex-col gap-2 text-sm" aria-label="Interventions, newest first">
                {record.interventions.map((i) => (
                  <li key={i.id} className="rounded-lg border border-border p-3">
                    <p>
                      <strong>{LABELS.intervention_kind[i.kind]}</strong>{" "}
                      <span className="text-muted-foreground">
                        <time dateTime={i.created_at}>{formatDateTime(i.created_at)}</time>
                        {i.created_by_name ? ` by ${i.created_by_name}` : ""}
                        {i.flag_id ? " (with a flag review)" : ""}
                      </span>
                    </p>
                    <p className="mt-1 break-words whitespace-pre-line">{i.note}</p>
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>
        {deleted ? null : (
          <Card>
            <CardHeader>
              <CardTitle>Record an intervention</CardTitle>
            </CardHeader>
            <CardContent>
              <InterventionForm userId={userId} kinds={kinds} />
            </CardContent>
          </Card>
        )}
      </div>
    </section>
  );
}
