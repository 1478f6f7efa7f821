import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { GoLiveCheckReport } from "@/components/admin/system/go-live-check";
import { AcknowledgeAlertForm, ResolvePaymentForm, RetryMailForm } from "@/components/admin/system/system-actions";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { requireAdmin } from "@/lib/auth/session";
import { systemOverview } from "@/lib/data/operations";
import { formatDateTime, formatGBP } from "@/lib/format";
import { LABELS } from "@/lib/labels";
import { checkThisSite } from "@/lib/operations/site-production-check";
import { systemVerdict, type SystemConcern, type SystemVerdict } from "@/lib/operations/system-verdict";

export const metadata: Metadata = { title: "System", robots: { index: false } };

// What needs an operator, in one place. Admins read it; super admins act (SQL checks each action and
// audits it). Opening the page is itself a check: any new incident is raised (and mailed) before it is shown.

const bytes = (n: number) =>
  n < 1024 * 1024
    ? `${(n / 1024).toLocaleString("en-GB", { maximumFractionDigits: 1 })} KB`
    : `${(n / 1024 / 1024).toLocaleString("en-GB", { maximumFractionDigits: 1 })} MB`;

/** A section of the page; `anchor` is its id, which the verdict at the top links. */
function Section({
  anchor,
  title,
  description,
  children,
}: {
  anchor: string;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  const id = `${anchor}-title`;
  return (
    <section id={anchor} aria-labelledby={id} className="scroll-mt-20">
      <Card>
        <CardHeader>
          <CardTitle id={id}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">{children}</CardContent>
      </Card>
    </section>
  );
}

function SystemVerdictLine({ verdict }: { verdict: SystemVerdict }) {
  return (
    <section aria-label="Verdict">
      <Alert variant={verdict.items.length === 0 ? "success" : "warning"} announce={false}>
        <AlertTitle className="text-base">{verdict.headline}</AlertTitle>
        {verdict.items.length > 0 ? (
          <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {verdict.items.map((item) => (
              <li key={item.words}>
                <a href={`#${item.section}`} className="underline underline-offset-4">
                  {item.words}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </Alert>
    </section>
  );
}

const Nothing = ({ children }: { children: React.ReactNode }) => <p className="text-muted-foreground">{children}</p>;

export default async function AdminSystemPage({ searchParams }: { searchParams: Promise<{ check?: string }> }) {
  await requireAdmin("/admin/system");
  const s = await systemOverview();
  // The go-live check tries the project (a sign-up refused, a link made and deleted, a webhook event posted), so it
  // runs when a super admin asks, never on every visit.
  const goLive = s.can_act && (await searchParams).check === "go-live" ? await checkThisSite() : null;
  const openAlerts = s.alerts.filter((a) => !a.acknowledged_at);
  const lastRun = s.cron.runs[0];
  // What needs a person, by section: the verdict counts this list and nothing else.
  const concerns: SystemConcern[] = [
    { section: "alerts", count: openAlerts.length, one: "open alert", many: "open alerts" },
    { section: "cron", count: s.cron.stale ? 1 : 0, one: "scheduled job not running" },
    { section: "cron", count: lastRun && !lastRun.ok ? 1 : 0, one: "failed last run of the scheduled job" },
    { section: "overdue", count: s.overdue_draws.length, one: "overdue draw", many: "overdue draws" },
    { section: "payments", count: s.payments.length, one: "payment to resolve", many: "payments to resolve" },
    {
      section: "webhooks",
      count: s.webhooks.length,
      one: "failed webhook delivery",
      many: "failed webhook deliveries",
    },
    { section: "mail", count: s.mail.failed, one: "failed e-mail", many: "failed e-mails" },
    {
      section: "go-live",
      count: goLive?.filter((check) => check.verdict === "fail").length ?? 0,
      one: "failed go-live check",
      many: "failed go-live checks",
    },
  ];

  return (
    <section className="flex flex-col gap-8">
      <div>
        <AdminBreadcrumbs path="/admin/system" />
        <PageHeader
          title="System"
          description="The scheduled job, draws, payments, webhooks and their refused calls, mail, sign-in refusals and storage: what needs a person now."
        />
      </div>
      <SystemVerdictLine verdict={systemVerdict(concerns)} />
      {s.can_act ? null : (
        <Alert variant="info" announce={false}>
          You can read this page. Only a super admin can retry mail, resolve payments or acknowledge alerts.
        </Alert>
      )}

      <Section
        anchor="go-live"
        title="Go-live check"
        description="Whether this site and its Supabase project are set up as the README's go-live steps say: keys, migrations, Storage, auth settings, the visitor's address, the scheduled job, Stripe and mail. The same as npm run check:production."
      >
        {goLive ? (
          <GoLiveCheckReport results={goLive} />
        ) : s.can_act ? (
          <p>
            <Link href="/admin/system?check=go-live#go-live" className="font-medium underline underline-offset-4">
              Run the go-live check
            </Link>
          </p>
        ) : (
          <Nothing>Only a super admin can run the go-live check.</Nothing>
        )}
      </Section>

      <Section
        anchor="alerts"
        title="Alerts"
        description="Each incident is told once: super admins are e-mailed when it is raised."
      >
        {openAlerts.length === 0 ? (
          <Nothing>No open alerts.</Nothing>
        ) : (
          <ul className="flex flex-col gap-4">
            {openAlerts.map((a) => (
              <li key={a.id} className="flex flex-col gap-2 rounded-md border border-border p-3">
                <p>
                  <Badge variant="destructive">{LABELS.alert_kind[a.kind]}</Badge>{" "}
                  <span className="font-semibold">{a.subject}</span>
                </p>
                <p className="text-sm">{a.detail}</p>
                <p className="text-sm text-muted-foreground">Raised {formatDateTime(a.raised_at)}</p>
                {s.can_act ? <AcknowledgeAlertForm alertId={a.id} label={a.subject} /> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section
        anchor="cron"
        title="Scheduled job"
        description="/api/cron/draws runs every minute: draws, player-protection flags, alerts and mail."
      >
        {s.cron.stale ? (
          <Alert variant="destructive" announce={false}>
            The scheduled job has not run for more than five minutes. Draws wait until it runs again.
          </Alert>
        ) : null}
        <DataTable
          cards
          caption={`The last ${s.cron.runs.length} runs, newest first`}
          rows={s.cron.runs}
          rowKey={(r) => r.id}
          empty={<Nothing>The scheduled job has not run yet.</Nothing>}
          columns={[
            { header: "Started", cell: (r) => formatDateTime(r.started_at) },
            {
              header: "Outcome",
              cell: (r) => <Badge variant={r.ok ? "success" : "destructive"}>{r.ok ? "Worked" : "Failed"}</Badge>,
            },
            {
              header: "Result",
              cell: (r) =>
                r.error ??
                Object.entries(r.result)
                  .map(([k, v]) => `${k} ${String(v)}`)
                  .join(", "),
            },
          ]}
        />
      </Section>

      <Section
        anchor="overdue"
        title="Overdue draws"
        description="Draw time passed and no draw yet. The next run of the job draws them."
      >
        <DataTable
          cards
          caption="Overdue draws, oldest first"
          rows={s.overdue_draws}
          rowKey={(d) => d.id}
          empty={<Nothing>No draw is overdue.</Nothing>}
          columns={[
            {
              header: "Competition",
              cell: (d) => (
                <Link href={`/admin/competitions/${d.id}`} className="font-medium underline underline-offset-4">
                  {d.title}
                </Link>
              ),
            },
            { header: "Draw time", cell: (d) => formatDateTime(d.draw_at) },
            {
              header: "Late by",
              cell: (d) => (d.overdue_minutes === 1 ? "1 minute" : `${d.overdue_minutes} minutes`),
            },
          ]}
        />
      </Section>

      <Section
        anchor="payments"
        title="Payments needing a person"
        description="Payments whose amount did not match their top-up, and money owed after a refund of credit already spent."
      >
        {s.payments.length === 0 ? (
          <Nothing>No payment needs a person.</Nothing>
        ) : (
          <ul className="flex flex-col gap-4">
            {s.payments.map((p) => {
              const label =
                p.kind === "owed" ? `amount owed by ${p.player?.name ?? "a player"}` : `payment ${p.reference}`;
              return (
                <li
                  key={`${p.kind}:${p.reference}`}
                  className="flex flex-col gap-2 rounded-md border border-border p-3"
                >
                  <p>
                    <Badge variant="warning">{LABELS.payment_issue[p.kind]}</Badge>{" "}
                    {p.player ? (
                      <Link href={`/admin/users/${p.player.id}`} className="font-medium underline underline-offset-4">
                        {p.player.name}
                      </Link>
                    ) : null}{" "}
                    {p.amount !== null ? <span className="font-semibold">{formatGBP(p.amount)}</span> : null}
                  </p>
                  <p className="text-sm">{p.detail}</p>
                  <p className="text-sm text-muted-foreground">Since {formatDateTime(p.since)}</p>
                  {s.can_act ? <ResolvePaymentForm kind={p.kind} reference={p.reference} label={label} /> : null}
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      <Section
        anchor="webhooks"
        title="Webhook deliveries failed or waiting"
        description="Stripe events answered with an error: Stripe retries them for up to three days."
      >
        <DataTable
          cards
          caption="Failed or mismatched deliveries, latest first"
          rows={s.webhooks}
          rowKey={(w) => w.id}
          empty={<Nothing>No webhook delivery has failed.</Nothing>}
          columns={[
            {
              header: "Event",
              cell: (w) => (
                <>
                  <span className="font-mono text-xs">{w.event_id}</span> ({w.event_type})
                </>
              ),
            },
            { header: "Answer", cell: (w) => `${w.http_status} ${w.last_error ?? ""}` },
            { header: "Attempts", cell: (w) => w.attempts },
            { header: "Last seen", cell: (w) => formatDateTime(w.last_seen_at) },
          ]}
        />
      </Section>

      <Section
        anchor="webhook-refusals"
        title="Refused webhook calls (bad signature), last 24 hours"
        description="Calls to the Stripe webhook without a good signature, per hour. Anyone can make one, so a few mean little; if real deliveries stop arriving and these climb, STRIPE_WEBHOOK_SECRET does not match the endpoint's signing secret."
      >
        <DataTable
          cards
          caption="Refused webhook calls per hour, latest first"
          rows={s.webhook_refusals}
          rowKey={(r) => `${r.hour}:${r.provider}`}
          empty={<Nothing>No webhook call was refused in the last 24 hours.</Nothing>}
          columns={[
            { header: "Hour", cell: (r) => formatDateTime(r.hour) },
            { header: "Refused", cell: (r) => r.refusals },
          ]}
        />
      </Section>

      <Section
        anchor="mail"
        title="Mail"
        description={`${s.mail.queued.toLocaleString("en-GB")} queued, ${s.mail.failed.toLocaleString("en-GB")} failed after five attempts.`}
      >
        <DataTable
          cards
          caption="Failed mail, newest first"
          rows={s.mail.failures}
          rowKey={(m) => m.id}
          empty={<Nothing>No mail has failed.</Nothing>}
          columns={[
            { header: "To", cell: (m) => m.to_email },
            { header: "Subject", cell: (m) => m.subject },
            { header: "Error", cell: (m) => m.error ?? "Unknown" },
            s.can_act && {
              header: "Retry",
              cell: (m) => <RetryMailForm mailId={m.id} label={`“${m.subject}” to ${m.to_email}`} />,
            },
          ]}
        />
      </Section>

      <Section
        anchor="refusals"
        title="Refused sign-ins and codes"
        description="Per hour, the last 24 hours: wrong passwords and two-step codes, and attempts refused by the per-visitor limits."
      >
        <DataTable
          cards
          caption="Refusals per hour, latest first"
          rows={s.auth_refusals}
          rowKey={(h) => h.hour}
          empty={<Nothing>No sign-in or code was refused in the last 24 hours.</Nothing>}
          columns={[
            { header: "Hour", cell: (h) => formatDateTime(h.hour) },
            { header: "Wrong password", cell: (h) => h.sign_in },
            { header: "Sign-ins limited", cell: (h) => h.sign_in_limited },
            { header: "Wrong code", cell: (h) => h.code },
            { header: "Codes limited", cell: (h) => h.code_limited },
          ]}
        />
      </Section>

      <Section anchor="storage" title="Storage" description="What the database and the competition images take up.">
        <dl className="grid gap-2 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-muted-foreground">Database</dt>
            <dd className="font-semibold">{bytes(s.storage.database_bytes)}</dd>
          </div>
          <div>
            <dt className="text-sm text-muted-foreground">Competition images</dt>
            <dd className="font-semibold">
              {bytes(s.storage.image_bytes)} in {s.storage.image_count.toLocaleString("en-GB")}{" "}
              {s.storage.image_count === 1 ? "file" : "files"}
            </dd>
          </div>
        </dl>
      </Section>
    </section>
  );
}
