import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Gift } from "lucide-react";
import { AdminBreadcrumbs } from "@/components/admin/admin-breadcrumbs";
import { FigureList } from "@/components/admin/competitions/figure-list";
import { FulfilmentForm } from "@/components/admin/competitions/fulfilment-form";
import { InstantWinDeliveredForm } from "@/components/admin/competitions/instant-win-delivered-form";
import { WinnerStoryPanel } from "@/components/admin/competitions/winner-story-panel";
import { PrizeStatusBadge, PrizeTimeline } from "@/components/prizes/prize-progress";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireAdmin } from "@/lib/auth/session";
import {
  adminListInstantWinFulfilment,
  adminListPrizeFulfilment,
  type PrizeFulfilment,
} from "@/lib/data/admin-competitions";
import { isPrizeStatus, PRIZE_STATUS, PRIZE_STATUSES } from "@/lib/prizes/steps";
import { formatDateTime, formatGBP, formatPounds, ordinal } from "@/lib/format";
import { cn } from "@/lib/utils";

export const metadata: Metadata = { title: "Winners", robots: { index: false } };

function choice(prize: PrizeFulfilment): string {
  if (prize.prize_choice === "cash" && prize.cash_alternative !== null) {
    return `${formatPounds(prize.cash_alternative)} cash`;
  }
  if (prize.prize_choice === "prize") return "The prize";
  return prize.cash_alternative === null ? "The prize (no cash alternative)" : "Not chosen yet";
}

/** The competitions with more than one prize drawn: their cards say which prize each is. */
function withSeveralPrizes(prizes: PrizeFulfilment[]): Set<string> {
  return new Set(prizes.filter((p) => p.prize_position > 1).map((p) => p.competition.id));
}

// Prize fulfilment: each prize's winner, their choice of prize or cash, and the prize's progress from awaiting
// claim to verified (ID checked) to delivered, with notes and the proof-of-delivery reference.
export default async function AdminWinnersPage({ searchParams }: { searchParams: Promise<{ status?: string }> }) {
  await requireAdmin("/admin/competitions/winners");
  const { status: asked } = await searchParams;
  const status = isPrizeStatus(asked) ? asked : undefined;
  const [prizes, everyPrize, instantWins] = await Promise.all([
    adminListPrizeFulfilment(status),
    // A filter may leave out a competition's other prizes: whether it had several is read from them all.
    status ? adminListPrizeFulfilment() : null,
    adminListInstantWinFulfilment(),
  ]);
  const several = withSeveralPrizes(everyPrize ?? prizes);
  /** Which prize it is, for the card's name and its forms' names: one competition's forms must differ. */
  const which = (prize: PrizeFulfilment) =>
    several.has(prize.competition.id) ? `${ordinal(prize.prize_position)} prize` : null;
  const prizeName = (prize: PrizeFulfilment) => [prize.competition.title, which(prize)].filter(Boolean).join(", ");
  return (
    <section className="flex flex-col gap-6">
      <div>
        <AdminBreadcrumbs path="/admin/competitions/winners" />
        <PageHeader
          title="Winners"
          description="Every prize from the draw to delivery: awaiting claim, verified (identity checked), delivered."
        />
      </div>
      <nav aria-label="Filter by prize status">
        <ul className="flex flex-wrap gap-2">
          {[undefined, ...PRIZE_STATUSES].map((s) => (
            <li key={s ?? "all"}>
              <Link
                href={s ? `/admin/competitions/winners?status=${s}` : "/admin/competitions/winners"}
                aria-current={s === status ? "page" : undefined}
                className={cn(
                  "inline-flex rounded-full border px-3 py-1 text-sm font-medium",
                  s === status
                    ? "border-primary bg-primary text-primary-foreground"
                    : "border-border bg-background hover:bg-accent hover:text-accent-foreground",
                )}
              >
                {s ? PRIZE_STATUS[s].label : "All"}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {prizes.length === 0 ? (
        <EmptyState
          icon={<Gift />}
          title="No prizes here yet."
          description="Prizes appear when competitions are drawn."
        />
      ) : (
        <ul className="flex flex-col gap-4">
          {prizes.map((prize) => (
            <li key={prize.draw_id}>
              <Card className="flex flex-col gap-5 p-5">
                <article
                  aria-labelledby={
                    which(prize) ? `prize-${prize.draw_id} prize-${prize.draw_id}-which` : `prize-${prize.draw_id}`
                  }
                  className="flex flex-col gap-5"
                >
                  <header className="flex flex-wrap items-start justify-between gap-3">
                    <div>
                      <h2 id={`prize-${prize.draw_id}`} className="text-lg font-semibold">
                        {prize.competition.title}
                      </h2>
                      {which(prize) ? (
                        <p id={`prize-${prize.draw_id}-which`} className="font-medium">
                          {which(prize)}: {prize.prize_description}
                        </p>
                      ) : null}
                      <p className="text-sm text-muted-foreground">
                        Drawn {formatDateTime(prize.drawn_at)} · ticket #{prize.winning_number} ·{" "}
                        <Link
                          href={`/winners/${prize.draw_id}`}
                          className="text-primary-text underline underline-offset-4"
                        >
                          verify the draw
                        </Link>{" "}
                        ·{" "}
                        <Link
                          href={`/admin/competitions/${prize.competition.id}`}
                          className="text-primary-text underline underline-offset-4"
                        >
                          competition
                        </Link>
                      </p>
                    </div>
                    <PrizeStatusBadge status={prize.prize_status} />
                  </header>
                  <FigureList
                    items={[
                      [
                        "Winner",
                        `${prize.winner_name ?? prize.winner_display_name} (shown as ${prize.winner_display_name})`,
                      ],
                      [
                        prize.route === "postal" ? "Postal address" : "E-mail",
                        prize.route === "postal"
                          ? (prize.winner_address ?? "Not given")
                          : (prize.winner_email ?? "Not known"),
                      ],
                      ["Prize", `${prize.prize_description} (${formatPounds(prize.prize_value)})`],
                      ["Prize or cash", choice(prize)],
                      [
                        "Send to",
                        prize.delivery_address ??
                          (prize.prize_choice === "cash" ? "Cash: no delivery" : "Not given yet"),
                      ],
                      ["Prize cost", formatGBP(prize.prize_cost)],
                      ["Proof of delivery", prize.proof_of_delivery ?? "None yet"],
                    ]}
                  />
                  <PrizeTimeline
                    prize={prize}
                    proof={prize.proof_of_delivery}
                    identityCheck={prize.identity_check ?? undefined}
                  />
                  <FulfilmentForm prize={prize} name={prizeName(prize)} />
                  <WinnerStoryPanel prize={prize} name={prizeName(prize)} />
                </article>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="instant-wins-to-deliver" className="flex flex-col gap-4">
        <h2 id="instant-wins-to-deliver" className="text-xl font-semibold">
          Instant wins to deliver
        </h2>
        {instantWins.length === 0 ? (
          <p className="text-muted-foreground">No instant-win prize to deliver.</p>
        ) : (
          <ul className="flex flex-col gap-4">
            {instantWins.map((win) => (
              <li key={win.id}>
                <Card className="flex flex-col gap-4 p-5">
                  <FigureList
                    items={[
                      ["Competition", win.competition_title],
                      ["Prize", `${win.prize} (ticket #${win.ticket_number}, won ${formatDateTime(win.won_at)})`],
                      ["Winner", win.postal_name ?? win.display_name],
                      ["Contact", win.email ?? win.postal_address ?? "Not known"],
                      [
                        "Status",
                        win.delivered_at ? `Delivered ${formatDateTime(win.delivered_at)}` : "Awaiting delivery",
                      ],
                    ]}
                  />
                  {win.status === "awaiting_fulfilment" ? (
                    <InstantWinDeliveredForm
                      id={win.id}
                      label={`Delivery of ${win.prize}, ticket #${win.ticket_number}`}
                    />
                  ) : null}
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
