import { Link } from "@/components/ui/link";
import { activityKindLabel } from "@/lib/activity/filters";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { ledgerKindLabel } from "@/lib/account/ledger-filters";
import { LABELS } from "@/lib/labels";
import type { AdminLedgerPage, AdminUserDetail } from "@/lib/data/admin-users";
import { formatDate, formatDateTime, formatGBP } from "@/lib/format";

// The sections of /admin/users/{id}: server components, figures as the SQL computed them.

function Facts({ items }: { items: [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      {items.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const none = <span className="text-muted-foreground">Not given</span>;

export function ProfileSection({ user }: { user: AdminUserDetail["user"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
      </CardHeader>
      <CardContent>
        <Facts
          items={[
            ["Name", user.name],
            ["E-mail", user.email ?? none],
            ["Date of birth", user.date_of_birth ? formatDate(user.date_of_birth) : none],
            ["Town", user.town ?? none],
            ["E-mail notifications", user.email_notifications ? "On" : "Off"],
            ["Marketing e-mail", user.marketing_consent ? "Consented" : "Not consented"],
            ["Joined", formatDateTime(user.created_at)],
            [
              "Account id",
              <span key="id" className="font-mono text-xs">
                {user.id}
              </span>,
            ],
          ]}
        />
      </CardContent>
    </Card>
  );
}

export function AccountSection({ user }: { user: AdminUserDetail["user"] }) {
  const approval =
    user.approval === "approved"
      ? `Approved${user.approved_at ? ` ${formatDateTime(user.approved_at)}` : ""}${user.approved_by_name ? ` by ${user.approved_by_name}` : " (automatically or by the seed)"}`
      : user.approval === "rejected"
        ? `Rejected${user.rejection_reason ? `: ${user.rejection_reason}` : ""}`
        : user.approval === "deleted"
          ? `Deleted ${user.deleted_at ? formatDateTime(user.deleted_at) : ""}`
          : "Waiting for approval";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account</CardTitle>
      </CardHeader>
      <CardContent>
        <Facts
          items={[
            [
              "Balance",
              <strong key="b" className="tabular-nums">
                {formatGBP(user.credits)}
              </strong>,
            ],
            ["Spent on entries", formatGBP(user.total_spent)],
            ["Entries", String(user.total_entries)],
            ["Approval", approval],
            [
              "KYC status",
              `${user.kyc_status}${user.verified_at ? ` (verified ${formatDate(user.verified_at)})` : ""}`,
            ],
          ]}
        />
      </CardContent>
    </Card>
  );
}

export function ProtectionsSection({ protections: p }: { protections: AdminUserDetail["protections"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Limits and breaks</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <Facts
          items={[
            ["State", LABELS.protection_state[p.state]],
            ...(p.break_until ? ([["Until", formatDateTime(p.break_until)]] as [string, string][]) : []),
            ...(p.closed_at ? ([["Closed", formatDateTime(p.closed_at)]] as [string, string][]) : []),
            ["Monthly limit", p.monthly_limit === null ? "No limit" : formatGBP(p.monthly_limit)],
            ...(p.pending_limit_from
              ? ([
                  [
                    "Waiting to apply",
                    `${p.pending_limit === null ? "No limit" : formatGBP(p.pending_limit)} from ${formatDateTime(p.pending_limit_from)}`,
                  ],
                ] as [string, string][])
              : []),
            ["Topped up this month", formatGBP(p.month_credited)],
            [
              "Checkouts in progress",
              p.month_held > 0
                ? `${formatGBP(p.month_held)} held while a checkout is open, released if it is not paid`
                : "None",
            ],
            ["Left to top up this month", p.top_up_remaining === null ? "No limit" : formatGBP(p.top_up_remaining)],
            ["Spent on entries this month", formatGBP(p.month_spent)],
            [
              "Left to spend on entries this month",
              p.spend_remaining === null ? "No limit" : formatGBP(p.spend_remaining),
            ],
          ]}
        />
        <p className="text-xs text-muted-foreground">
          Only the player can set these. Flags and interventions are below.
        </p>
      </CardContent>
    </Card>
  );
}

export function LedgerSection({ userId, page, paged }: { userId: string; page: AdminLedgerPage; paged: boolean }) {
  return (
    <section aria-labelledby="ledger-heading" className="flex flex-col gap-3">
      <h2 id="ledger-heading" className="text-lg font-semibold">
        Credit ledger
      </h2>
      <DataTable
        cards
        caption="Credit ledger, newest first"
        captionHidden
        rows={page.rows}
        rowKey={(row) => row.id}
        empty={<p className="text-muted-foreground">No credit has moved on this account.</p>}
        columns={[
          {
            header: "When",
            className: "whitespace-nowrap",
            cell: (row) => <time dateTime={row.created_at}>{formatDateTime(row.created_at)}</time>,
          },
          { header: "Kind", cell: (row) => ledgerKindLabel(row.kind) },
          { header: "Amount", numeric: true, cell: (row) => formatGBP(row.amount) },
          { header: "Balance after", numeric: true, cell: (row) => formatGBP(row.balance_after) },
          {
            header: "Reason",
            cell: (row) => (
              <>
                {row.reason ?? ""}
                {row.created_by_name && row.kind === "admin_adjustment" ? (
                  <span className="block text-xs text-muted-foreground">by {row.created_by_name}</span>
                ) : null}
              </>
            ),
          },
        ]}
      />
      {paged || page.next_before ? (
        <nav aria-label="Pages of the ledger" className="flex justify-between gap-4">
          {paged ? (
            <Link href={`/admin/users/${userId}#ledger-heading`} className={buttonClasses("outline", "sm")}>
              Newest
            </Link>
          ) : (
            <span />
          )}
          {page.next_before ? (
            <Link
              href={`/admin/users/${userId}?before=${page.next_before}#ledger-heading`}
              className={buttonClasses("outline", "sm")}
            >
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export function EntriesSection({ entries }: { entries: AdminUserDetail["entries"] }) {
  return (
    <section aria-labelledby="entries-heading" className="flex flex-col gap-3">
      <h2 id="entries-heading" className="text-lg font-semibold">
        Entries
      </h2>
      <DataTable
        cards
        caption="Entries, newest first (the latest 50)"
        captionHidden
        rows={entries}
        rowKey={(entry) => entry.id}
        empty={<p className="text-muted-foreground">No entries yet.</p>}
        columns={[
          {
            header: "When",
            className: "whitespace-nowrap",
            cell: (entry) => <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>,
          },
          { header: "Competition", cell: (entry) => entry.competition_title },
          {
            header: "Tickets",
            className: "tabular-nums",
            cell: (entry) =>
              `${entry.quantity === 1 ? `#${entry.first_ticket}` : `#${entry.first_ticket}–#${entry.last_ticket}`}${entry.kind === "postal" ? " (postal)" : ""}`,
          },
          { header: "Paid", numeric: true, cell: (entry) => formatGBP(entry.amount) },
          { header: "Status", cell: (entry) => entry.status },
        ]}
      />
    </section>
  );
}

const detailText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function ActivitySection({ userId, activity }: { userId: string; activity: AdminUserDetail["activity"] }) {
  return (
    <section aria-labelledby="activity-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="activity-heading" className="text-lg font-semibold">
          Activity
        </h2>
        <span className="flex gap-4 text-sm">
          <Link href={`/admin/activity?subject=${userId}`} className="underline underline-offset-4">
            All activity about them
          </Link>
          <Link href={`/admin/activity?actor=${userId}`} className="underline underline-offset-4">
            All activity by them
          </Link>
        </span>
      </div>
      {activity.length === 0 ? (
        <p className="text-muted-foreground">Nothing recorded yet.</p>
      ) : (
        <ol className="flex flex-col gap-2 text-sm">
          {activity.map((row) => (
            <li key={row.id} className="rounded-lg border border-border p-3">
              <p>
                <strong>{activityKindLabel(row.action)}</strong>{" "}
                <span className="text-muted-foreground">
                  <time dateTime={row.created_at}>{formatDateTime(row.created_at)}</time>
                  {row.actor_id && row.actor_id !== userId ? ` by ${row.actor_name ?? "a deleted user"}` : ""}
                </span>
              </p>
              {Object.keys(row.details).length ? (
                <p className="mt-1 font-mono text-xs break-words text-muted-foreground">
                  {Object.entries(row.details)
                    .map(([key, value]) => `${key}: ${detailText(value)}`)
                    .join(" · ")}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
