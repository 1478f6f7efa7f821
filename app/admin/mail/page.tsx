import type { Metadata } from "next";
import { Inbox, Send } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { MailComposer } from "@/components/admin/mail/mail-composer";
import { segmentText } from "@/lib/mail/mail-fields";
import { CampaignsTable, OutboxFilterForm, OutboxTable } from "@/components/admin/mail/mail-tables";
import {
  OUTBOX_PAGE_SIZE,
  newerOutboxHref,
  olderOutboxHref,
  parseOutboxQuery,
  type SearchParams,
} from "@/lib/mail/outbox-filters";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import { listMailCampaigns, listOutbox, type MailCampaign } from "@/lib/data/admin-mail";
import { adminListCompetitions } from "@/lib/data/admin-competitions";
import { NEWER_OLDER, Pagination } from "@/components/ui/pagination";

export const metadata: Metadata = { title: "Mail", robots: { index: false } };

const players = (n: number) => (n === 1 ? "1 player" : `${n.toLocaleString("en-GB")} players`);

/** What the page says after a send: where the mail went and how far delivery has got. */
function sentNotice(campaign: MailCampaign, sent: "1" | "again"): string {
  const again = sent === "again" ? "This preview was already sent, so nothing more was queued. " : "";
  const failed = campaign.failed ? `, ${campaign.failed.toLocaleString("en-GB")} failed` : "";
  return (
    `${again}“${campaign.subject}” went to the mail queue for ${players(campaign.recipients)} ` +
    `(${segmentText(campaign.segment, campaign.competition)}): ${campaign.sent.toLocaleString("en-GB")} delivered ` +
    `so far, ${campaign.queued.toLocaleString("en-GB")} still queued${failed}. The next mail run delivers the rest.`
  );
}

export default async function AdminMailPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin("/admin/mail");
  const { query, ignored } = parseOutboxQuery(await searchParams);
  const [competitions, campaigns, outbox] = await Promise.all([
    adminListCompetitions(),
    listMailCampaigns(20),
    listOutbox({ campaignId: query.campaign, status: query.status, before: query.before, limit: OUTBOX_PAGE_SIZE }),
  ]);
  const campaign = outbox.campaign;
  const newer = newerOutboxHref(query);
  const older = olderOutboxHref(query, outbox.next_before);
  const notes = [...ignored, ...(query.campaign && !campaign ? ["No campaign has that id, so no mail matches."] : [])];

  return (
    <section className="flex flex-col gap-8">
      <div>
        <AdminBreadcrumbs path="/admin/mail" />
        <PageHeader
          title="Mail"
          description="Write to a segment of players, check who it reaches and how it reads, send, and follow each message."
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Compose</CardTitle>
          <CardDescription>
            Nothing is sent until you have seen the preview and chosen “Send”. Marketing never reaches players who did
            not agree to it, or who are on a break, self-excluded or closed (code of practice 1.5, 1.11).
          </CardDescription>
        </CardHeader>
        <CardContent>
          <MailComposer
            competitions={competitions
              .filter((c) => c.status !== "draft")
              .map((c) => ({ id: c.id, title: c.title, status: c.status }))}
          />
        </CardContent>
      </Card>

      <section aria-labelledby="campaigns-title" className="flex flex-col gap-4">
        <h2 id="campaigns-title" className="text-xl font-semibold">
          Recent campaigns
        </h2>
        {campaigns.length ? (
          <CampaignsTable campaigns={campaigns} />
        ) : (
          <EmptyState icon={<Send />} title="No mail has been sent to a segment yet." />
        )}
      </section>

      <section id="outbox" aria-labelledby="outbox-title" className="flex scroll-mt-20 flex-col gap-4">
        <h2 id="outbox-title" className="text-xl font-semibold">
          Outbox
        </h2>
        {/* After a send the page opens here (#outbox), so the notice is where the admin lands. */}
        {query.sent && campaign ? <Alert variant="success">{sentNotice(campaign, query.sent)}</Alert> : null}
        <p className="text-muted-foreground">
          Every e-mail the site sends, newest first: campaigns and the site&apos;s own mail (receipts, results,
          approvals).
        </p>
        <OutboxFilterForm campaigns={campaigns} campaign={campaign} status={query.status} />
        {notes.length ? (
          <Alert variant="warning">
            {notes.map((note) => (
              <p key={note}>{note}</p>
            ))}
          </Alert>
        ) : null}
        {outbox.rows.length === 0 ? (
          <EmptyState
            icon={<Inbox />}
            title={query.campaign || query.status ? "No mail matches this filter." : "No mail has been queued yet."}
          />
        ) : (
          <OutboxTable rows={outbox.rows} />
        )}
        <Pagination previousHref={newer} nextHref={older} words={NEWER_OLDER} label="Pages of the outbox" />
      </section>
    </section>
  );
}
