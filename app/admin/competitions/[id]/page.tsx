import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Download, ExternalLink, Pencil } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { CancelDialog } from "@/components/admin/competitions/cancel-dialog";
import { CharityDonationForm } from "@/components/admin/competitions/charity-donation-form";
import { DonationList } from "@/components/charities/donation-list";
import { FigureList } from "@/components/admin/competitions/figure-list";
import { loadCompetition } from "@/lib/competitions/load";
import { InstantWinsForm } from "@/components/admin/competitions/instant-wins-form";
import { PostalEntryForm } from "@/components/admin/competitions/postal-entry-form";
import { PublishButton } from "@/components/admin/competitions/publish-button";
import { PrizeTimeline } from "@/components/prizes/prize-progress";
import { adminState, StateBadge } from "@/components/admin/competitions/states";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { PRIZE_STATUS } from "@/lib/prizes/steps";
import { requireAdmin } from "@/lib/auth/session";
import { opensOnPublish, requestTime } from "@/lib/competitions/status";
import { adminGetInstantWins, type CompetitionDetail } from "@/lib/data/admin-competitions";
import { charityTerms, owedText } from "@/lib/charities/wording";
import { adminCompetitionCharity, type CompetitionCharity } from "@/lib/data/charities";
import { adminCompetitionPrizes, type CompetitionPrize } from "@/lib/data/competition-prizes";
import { endSentence, formatDateTime, formatGBP, formatPounds, formatWinner, ordinal } from "@/lib/format";
import { londonDay } from "@/lib/time/london";

export const metadata: Metadata = { title: "Competition", robots: { index: false } };

function savedNotice(saved: string | undefined, detail: CompetitionDetail, refunded: string | undefined) {
  const c = detail.competition;
  switch (saved) {
    case "created":
      return <Alert variant="success">Draft saved. Check it, then publish it when it is ready.</Alert>;
    case "updated":
      return <Alert variant="success">Changes saved.</Alert>;
    case "published":
      return (
        <Alert variant="success">
          <AlertTitle>Published: {c.title} is live.</AlertTitle>
          <p className="mt-1">
            Seed commitment (SHA-256 of the secret draw seed):{" "}
            <code className="font-mono break-all">{c.seed_commitment}</code>
          </p>
        </Alert>
      );
    case "cancelled":
      return (
        <Alert variant="success">
          Cancelled. {refunded === "1" ? "1 paid entry was" : `${refunded ?? 0} paid entries were`} refunded to credit
          and every entrant was e-mailed.
        </Alert>
      );
    default:
      return null;
  }
}

/**
 * The charity partner: who it is, what it gets, what is owed (SQL works it out at the draw) and paid, each donation
 * with its proof, and once drawn the form to record another.
 */
function CharityPartnerCard({
  competition: c,
  charity,
  now,
}: {
  competition: CompetitionDetail["competition"];
  charity: CompetitionCharity | null;
  now: number;
}) {
  if (!charity) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Charity partner</CardTitle>
        </CardHeader>
        <CardContent>
          <p className="text-muted-foreground">
            {c.status === "draft"
              ? "None. A charity partner can be named on the edit form until the competition is published."
              : "This competition has no charity partner."}
          </p>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Charity partner</CardTitle>
        <CardDescription>
          Shown to players before they enter and fixed at publication. Each donation is published with its proof as soon
          as it is recorded, and can never be changed.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <FigureList
          items={[
            [
              "Charity",
              charity.website ? (
                <a
                  href={charity.website}
                  className="font-medium text-primary-text underline underline-offset-4"
                  rel="noopener noreferrer"
                >
                  {charity.name}
                </a>
              ) : (
                charity.name
              ),
            ],
            ["Registered number", charity.registered_number],
            ["What it receives", charityTerms(charity)],
            ["Owed", owedText(charity.owed, c.status)],
            ["Paid", formatPounds(charity.paid)],
          ]}
        />
        <div>
          <h3 className="font-semibold">Donations</h3>
          <DonationList donations={charity.donations} label={`Donations to ${charity.name}`} />
        </div>
        {c.status === "drawn" ? (
          <CharityDonationForm
            competitionId={c.id}
            firstDay={londonDay(c.published_at ?? now)}
            today={londonDay(now)}
          />
        ) : (
          <p className="text-muted-foreground">
            {c.status === "cancelled" || c.status === "closed"
              ? "Nothing is owed: the competition was not drawn."
              : "Donations can be recorded once the competition is drawn: what is owed is known then."}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Every prize in order, the first being the competition's own: what it is and, once several are drawn, each one's
 * winning ticket and winner, with links to its fulfilment (its card on the winners page) and its draw's verification.
 */
function PrizesCard({ prizes }: { prizes: CompetitionPrize[] }) {
  const several = prizes.length > 1;
  // One prize's draw is told in the draw card, as before there could be several.
  const drawn = several && prizes.some((p) => p.draw_id !== null);
  // Each link names its prize for those who hear links out of context.
  const which = (p: CompetitionPrize) => <span className="sr-only"> of the {ordinal(p.prize_position)} prize</span>;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{several ? "Prizes" : "Prize"}</CardTitle>
        {several ? (
          <CardDescription>
            Drawn in this order from the same draw, no ticket winning twice. The 1st prize is the one the
            competition&apos;s cards show.
          </CardDescription>
        ) : null}
      </CardHeader>
      <CardContent>
        <DataTable
          cards
          caption="Prizes in the order they are drawn"
          captionHidden
          rows={prizes}
          rowKey={(p) => p.prize_position}
          columns={[
            { header: "Prize", className: "whitespace-nowrap", cell: (p) => ordinal(p.prize_position) },
            { header: "Description", className: "whitespace-pre-line", cell: (p) => p.description },
            { header: "Value", numeric: true, cell: (p) => formatPounds(p.value) },
            {
              header: "Cash alternative",
              numeric: true,
              cell: (p) => (p.cash_alternative === null ? "None" : formatPounds(p.cash_alternative)),
            },
            drawn && {
              header: "Winning ticket",
              numeric: true,
              cell: (p) => (p.winning_number === null ? "Not drawn" : `#${p.winning_number}`),
            },
            drawn && {
              header: "Winner",
              cell: (p) =>
                p.winner_display_name === null
                  ? "None"
                  : formatWinner({ winner_display_name: p.winner_display_name, winner_town: p.winner_town }),
            },
            drawn && {
              header: "Fulfilment",
              cell: (p) =>
                p.draw_id === null ? null : (
                  <span className="flex flex-col gap-1">
                    {p.prize_status ? <span>{PRIZE_STATUS[p.prize_status].label}</span> : null}
                    <Link
                      href={`/admin/competitions/winners#prize-${p.draw_id}`}
                      className="font-medium text-primary-text underline underline-offset-4"
                    >
                      Fulfilment{which(p)}
                    </Link>
                    <Link
                      href={`/winners/${p.draw_id}`}
                      className="font-medium text-primary-text underline underline-offset-4"
                    >
                      Verify the draw{which(p)}
                    </Link>
                  </span>
                ),
            },
          ]}
        />
      </CardContent>
    </Card>
  );
}

export default async function AdminCompetitionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ saved?: string; refunded?: string }>;
}) {
  const { id } = await params;
  await requireAdmin(`/admin/competitions/${id}`);
  const [detail, { saved, refunded }] = await Promise.all([loadCompetition(id), searchParams]);
  const { competition: c, figures, stored_dates: stored, postal_entries: postal, fulfilment } = detail;
  const [instantWins, charity, prizes] = await Promise.all([
    adminGetInstantWins(c.slug),
    adminCompetitionCharity(c.id),
    adminCompetitionPrizes(c.slug),
  ]);
  const severalPrizes = prizes.length > 1;
  const now = requestTime();
  const state = adminState(c, now);
  const editable = c.status === "draft" || c.status === "live";
  const cancellable = c.status !== "drawn" && c.status !== "cancelled";
  const postalOpen =
    c.status !== "draft" && c.status !== "cancelled" && c.status !== "drawn" && Date.parse(c.postal_deadline) > now;

  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/competitions" extra={[{ label: c.title }]} />
        <PageHeader
          title={c.title}
          description={
            <span className="inline-flex flex-wrap items-center gap-2">
              <StateBadge state={state} />
              <span>/competitions/{c.slug}</span>
            </span>
          }
          actions={
            <>
              {editable ? (
                <Link href={`/admin/competitions/${c.id}/edit`} className={buttonClasses("outline", "md")}>
                  <Pencil aria-hidden />
                  Edit
                </Link>
              ) : null}
              {c.status !== "draft" ? (
                <Link href={`/competitions/${c.slug}`} className={buttonClasses("outline", "md")}>
                  <ExternalLink aria-hidden />
                  Public page
                </Link>
              ) : null}
              {cancellable ? (
                <CancelDialog
                  competitionId={c.id}
                  title={c.title}
                  paidEntries={figures.paid_entries}
                  postalEntries={figures.postal_entries}
                />
              ) : null}
            </>
          }
        />
      </div>

      {savedNotice(saved, detail, refunded)}
      {c.status === "cancelled" ? (
        <Alert variant="warning" announce={false}>
          Cancelled {c.cancelled_at ? formatDateTime(c.cancelled_at) : ""}: {c.cancel_reason}
        </Alert>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Instant wins</CardTitle>
          <CardDescription>
            Prizes won at once by whoever gets a winning ticket number (paid or postal). The numbers are derived from
            the secret draw seed at publish, so nobody chooses or sees them before the draw; their commitment is
            published with the seed&apos;s. Set them before publishing: they are fixed from then on.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {c.status === "draft" ? (
            <InstantWinsForm competitionId={c.id} prizes={instantWins?.prizes ?? []} />
          ) : instantWins ? (
            <ul className="flex flex-col gap-1">
              {instantWins.prizes.map((p) => (
                <li key={p.position}>
                  {p.title}: {p.won} of {p.quantity} won
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-muted-foreground">This competition has no instant wins.</p>
          )}
        </CardContent>
      </Card>

      {c.status === "draft" ? (
        <Card>
          <CardHeader>
            <CardTitle>Publish</CardTitle>
            <CardDescription>
              Publishing makes it public, fixes its dates for good (the postal deadline and draw time take their
              defaults if empty) and makes the secret draw seed, whose SHA-256 commitment is then shown.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <PublishButton
              competitionId={c.id}
              terms={{
                title: c.title,
                opens: opensOnPublish(c.opens_at, now),
                closes: formatDateTime(c.closes_at),
                postalDeadline: `${formatDateTime(c.postal_deadline)}${stored.postal_deadline === null ? " (default)" : ""}`,
                draw: `${formatDateTime(c.draw_at)}${stored.draw_at === null ? " (default)" : ""}`,
                ticketPrice: formatGBP(c.ticket_price),
                tickets: c.total_tickets.toLocaleString("en-GB"),
                perPerson: c.max_tickets_per_user.toLocaleString("en-GB"),
              }}
            />
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Figures</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <FigureList
            items={[
              [
                "Online tickets sold",
                `${c.tickets_sold.toLocaleString("en-GB")} of ${c.total_tickets.toLocaleString("en-GB")}`,
              ],
              [
                "Postal tickets",
                `${c.postal_tickets.toLocaleString("en-GB")} (${figures.postal_entries} ${figures.postal_entries === 1 ? "entry" : "entries"})`,
              ],
              ["Revenue", formatGBP(figures.revenue)],
              ["Paid entries", figures.paid_entries.toLocaleString("en-GB")],
              ["Players", figures.players.toLocaleString("en-GB")],
              [
                "Refunded",
                `${formatGBP(figures.refunded_total)} (${figures.refunded_entries} ${figures.refunded_entries === 1 ? "entry" : "entries"})`,
              ],
            ]}
          />
          <div className="flex flex-wrap gap-3">
            <a href={`/admin/competitions/${c.id}/entries.csv`} className={buttonClasses("outline", "sm")} download>
              <Download aria-hidden />
              Download entries (CSV)
            </a>
            {c.entry_list_open ? (
              <Link href={`/competitions/${c.slug}/entries`} className={buttonClasses("ghost", "sm")}>
                Public entry list
              </Link>
            ) : null}
          </div>
        </CardContent>
      </Card>

      <PrizesCard prizes={prizes} />

      <Card>
        <CardHeader>
          <CardTitle>Tickets and dates</CardTitle>
        </CardHeader>
        <CardContent>
          <FigureList
            items={[
              ["Ticket price", formatGBP(c.ticket_price)],
              ["Tickets per person", c.max_tickets_per_user.toLocaleString("en-GB")],
              ["Postal tickets per letter", c.postal_tickets_per_entry.toLocaleString("en-GB")],
              ["Opens", formatDateTime(c.opens_at)],
              ["Closes", formatDateTime(c.closes_at)],
              [
                "Postal deadline",
                `${formatDateTime(c.postal_deadline)}${stored.postal_deadline === null ? " (default)" : ""}`,
              ],
              ["Draw", `${formatDateTime(c.draw_at)}${stored.draw_at === null ? " (default)" : ""}`],
              ["Skill question", c.skill_question ?? "None"],
              [
                "Correct answer",
                c.skill_question ? `${c.skill_answer} (of ${(c.skill_options ?? []).join(", ")})` : "Not applicable",
              ],
            ]}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Commitment and draw</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {c.seed_commitment ? (
            <p>
              Seed commitment: <code className="font-mono text-sm break-all">{c.seed_commitment}</code>
              {c.external_randomness ? ` · external randomness: ${String(c.external_randomness.source)}` : null}
            </p>
          ) : (
            <p className="text-muted-foreground">The seed and its commitment are made when you publish.</p>
          )}
          {c.draw && severalPrizes ? (
            <p>
              Drawn {formatDateTime(c.draw.drawn_at)} over {c.draw.ticket_count.toLocaleString("en-GB")} tickets: each
              prize&apos;s winning ticket and winner, with its fulfilment and its draw to verify, are under Prizes.
            </p>
          ) : c.draw ? (
            <p>
              Drawn {formatDateTime(c.draw.drawn_at)}: ticket #{c.draw.winning_number} of{" "}
              {c.draw.ticket_count.toLocaleString("en-GB")}, won by {endSentence(formatWinner(c.draw))}{" "}
              <Link
                href={`/winners/${c.draw.id}`}
                className="font-medium text-primary-text underline underline-offset-4"
              >
                Verify the draw
              </Link>
              {fulfilment ? (
                <>
                  {" "}
                  · Prize: {PRIZE_STATUS[fulfilment.prize_status].label}
                  {fulfilment.prize_choice === "cash" ? " (cash chosen)" : ""} ·{" "}
                  <Link
                    href={`/admin/competitions/winners#prize-${c.draw.id}`}
                    className="font-medium text-primary-text underline underline-offset-4"
                  >
                    Fulfilment
                  </Link>
                </>
              ) : null}
            </p>
          ) : c.status === "closed" ? (
            <p className="text-muted-foreground">Closed with no tickets at the draw time: no draw.</p>
          ) : c.status !== "cancelled" && c.status !== "draft" ? (
            <p className="text-muted-foreground">Drawn automatically at {formatDateTime(c.draw_at)}.</p>
          ) : null}
          {/* With several prizes, each one's progress is on its own card on the winners page. */}
          {fulfilment && !severalPrizes ? (
            <PrizeTimeline
              prize={fulfilment}
              proof={fulfilment.proof_of_delivery}
              identityCheck={fulfilment.identity_check ?? undefined}
            />
          ) : null}
        </CardContent>
      </Card>

      <CharityPartnerCard competition={c} charity={charity} now={now} />

      <Card>
        <CardHeader>
          <CardTitle>Postal entries</CardTitle>
          <CardDescription>
            Free entries by post, accepted until {formatDateTime(c.postal_deadline)}: each letter gets{" "}
            {c.postal_tickets_per_entry} {c.postal_tickets_per_entry === 1 ? "ticket" : "tickets"} (stamp parity),
            numbered after the online tickets. Record letters on the day they arrive.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {postalOpen ? (
            <PostalEntryForm competitionId={c.id} question={c.skill_question} options={c.skill_options} />
          ) : (
            <p className="text-muted-foreground">
              {c.status === "draft"
                ? "Postal entries can be recorded once the competition is published."
                : "Postal entries are closed for this competition."}
            </p>
          )}

          <DataTable
            cards
            caption="Postal entries recorded"
            captionHidden
            rows={postal}
            rowKey={(p) => p.entry_id}
            empty={<p className="text-muted-foreground">No postal entries recorded.</p>}
            columns={[
              {
                header: "Recorded",
                className: "whitespace-nowrap",
                cell: (p) => (
                  <>
                    {formatDateTime(p.created_at)}
                    {p.recorded_by ? (
                      <span className="block text-xs text-muted-foreground">by {p.recorded_by}</span>
                    ) : null}
                  </>
                ),
              },
              { header: "Name", cell: (p) => p.name },
              { header: "Address", className: "whitespace-pre-line", cell: (p) => p.address },
              { header: "Account", cell: (p) => p.email ?? "None" },
              { header: "Tickets", cell: (p) => p.ticket_numbers.map((n) => `#${n}`).join(", ") },
              { header: "Status", cell: (p) => (p.status === "active" ? "Active" : "Withdrawn") },
            ]}
          />
        </CardContent>
      </Card>
    </section>
  );
}
