import { Link } from "@/components/ui/link";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Field, SelectField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { DataTable } from "@/components/ui/data-table";
import type { MailCampaign, MailStatus, OutboxRow } from "@/lib/data/admin-mail";
import { formatDateTime } from "@/lib/format";
import { isEnumValue, LABELS } from "@/lib/labels";
import { segmentText } from "@/lib/mail/mail-fields";
import { outboxHref } from "@/lib/mail/outbox-filters";

const STATUS_VARIANTS: Record<MailStatus, BadgeVariant> = { queued: "info", sent: "success", failed: "destructive" };

export function MailStatusBadge({ status }: { status: MailStatus }) {
  return <Badge variant={STATUS_VARIANTS[status]}>{LABELS.mail_status[status]}</Badge>;
}

/** What a kind of outbox row is called: a campaign's kind, or the app's own mail ("entry_receipt" → "Entry receipt"). */
function kindText(kind: string): string {
  if (isEnumValue("mail_kind", kind)) return LABELS.mail_kind[kind];
  const words = kind.replace(/[._]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The campaigns sent, newest first, each linking to its messages in the outbox. */
export function CampaignsTable({ campaigns }: { campaigns: MailCampaign[] }) {
  return (
    <DataTable
      cards
      caption="Campaigns sent, newest first"
      captionHidden
      rows={campaigns}
      rowKey={(c) => c.id}
      columns={[
        {
          header: "Sent",
          className: "whitespace-nowrap tabular-nums",
          cell: (c) => (
            <>
              <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time>
              <span className="block text-xs text-muted-foreground">by {c.sent_by?.name ?? "a deleted user"}</span>
            </>
          ),
        },
        {
          header: "Subject",
          cell: (c) => (
            <>
              <Link
                href={outboxHref({ campaign: c.id, status: null })}
                className="font-medium underline-offset-4 hover:underline"
              >
                {c.subject}
              </Link>
              <span className="block text-xs text-muted-foreground">{LABELS.mail_kind[c.kind]}</span>
            </>
          ),
        },
        { header: "To", cell: (c) => segmentText(c.segment, c.competition) },
        { header: "Recipients", numeric: true, cell: (c) => c.recipients.toLocaleString("en-GB") },
        {
          header: "Delivery",
          className: "whitespace-nowrap",
          cell: (c) =>
            `${c.sent.toLocaleString("en-GB")} sent, ${c.queued.toLocaleString("en-GB")} queued${c.failed ? `, ${c.failed.toLocaleString("en-GB")} failed` : ""}`,
        },
      ]}
    />
  );
}

/** Campaign and status: a plain GET form, so the filter lives in the URL and works without script. */
export function OutboxFilterForm({
  campaigns,
  campaign,
  status,
}: {
  campaigns: MailCampaign[];
  campaign: MailCampaign | null;
  status: MailStatus | null;
}) {
  // A campaign from a link that is older than the recent list still shows as chosen.
  const options = campaign && !campaigns.some((c) => c.id === campaign.id) ? [campaign, ...campaigns] : campaigns;
  return (
    <form
      method="get"
      action="/admin/mail#outbox"
      role="search"
      aria-label="Filter the outbox"
      className="grid gap-4 sm:grid-cols-[1fr_12rem_auto]"
    >
      <Field id="outbox-campaign" label="Campaign">
        {(control) => (
          <Select {...control} name="campaign" defaultValue={campaign?.id ?? ""}>
            <option value="">All mail</option>
            {options.map((c) => (
              <option key={c.id} value={c.id}>
                {c.subject} ({formatDateTime(c.created_at)})
              </option>
            ))}
          </Select>
        )}
      </Field>
      <SelectField
        id="outbox-status"
        label="Status"
        name="status"
        defaultValue={status ?? ""}
        options={LABELS.mail_status}
        blank="Any status"
      />
      <div className="flex items-start gap-2 sm:pt-6">
        <button type="submit" className={buttonClasses("primary", "md")}>
          Show
        </button>
        {campaign || status ? (
          <Link href={outboxHref({ campaign: null, status: null })} className={buttonClasses("ghost", "md")}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}

/** How a message went: its transport and when it was sent, or why it has not gone yet. */
function OutboxDelivery({ row }: { row: OutboxRow }) {
  if (row.status === "sent") {
    return (
      <>
        {LABELS.mail_transport[row.transport ?? "outbox"]}
        {row.sent_at ? (
          <span className="block text-xs text-muted-foreground">
            <time dateTime={row.sent_at}>{formatDateTime(row.sent_at)}</time>
          </span>
        ) : null}
      </>
    );
  }
  if (row.error) {
    return (
      <span className="break-words">
        {row.error}
        <span className="block text-xs text-muted-foreground">
          {row.attempts} {row.attempts === 1 ? "attempt" : "attempts"}
        </span>
      </span>
    );
  }
  return <span className="text-muted-foreground">Waiting for the next mail run</span>;
}

/** One page of the outbox: each message's recipient, subject, status and how it was delivered. */
export function OutboxTable({ rows }: { rows: OutboxRow[] }) {
  return (
    <DataTable
      cards
      caption="Outbox, newest first"
      captionHidden
      rows={rows}
      rowKey={(row) => row.id}
      columns={[
        {
          header: "Queued",
          className: "whitespace-nowrap tabular-nums",
          cell: (row) => <time dateTime={row.created_at}>{formatDateTime(row.created_at)}</time>,
        },
        {
          header: "To",
          cell: (row) => (
            <>
              {row.to_user ? (
                <Link href={`/admin/users/${row.to_user}`} className="underline-offset-4 hover:underline">
                  {row.to_name ?? row.to_email}
                </Link>
              ) : (
                (row.to_name ?? row.to_email)
              )}
              <span className="block text-xs text-muted-foreground">{row.to_email}</span>
            </>
          ),
        },
        {
          header: "Subject",
          cell: (row) => (
            <>
              {row.subject}
              <span className="block text-xs text-muted-foreground">{kindText(row.kind)}</span>
            </>
          ),
        },
        { header: "Status", cell: (row) => <MailStatusBadge status={row.status} /> },
        { header: "Delivery", className: "text-sm", cell: (row) => <OutboxDelivery row={row} /> },
      ]}
    />
  );
}
