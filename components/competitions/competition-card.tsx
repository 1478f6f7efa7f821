import { Link } from "@/components/ui/link";
import { Trophy } from "lucide-react";
import type { Competition } from "@/lib/data/competitions";
import { formatDateTime, formatGBP, formatWinner } from "@/lib/format";
import { badgeLabel, drawPendingLine, endingSoon, oddsText, phaseOf, type Phase } from "@/lib/competitions/status";
import { CardImage } from "./card-image";
import { Countdown } from "./countdown";
import { PrizeValue } from "./prize-value";
import { StatusBadge } from "./status-badge";
import { TicketProgress } from "./ticket-progress";

/** One competition in a grid: image, prize, price, odds, sold/total, closing and draw dates, countdown or result. */
export function CompetitionCard({
  competition: c,
  now,
  headingLevel = 3,
  preloadImage = false,
}: {
  competition: Competition;
  now: number;
  headingLevel?: 2 | 3;
  /** Above the fold (the first card of a page): load the image at once, first, not lazily. */
  preloadImage?: boolean;
}) {
  const phase = phaseOf(c, now);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const image = c.images[0];
  return (
    <article className="group relative flex w-full flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
      <div className="relative aspect-[4/3] bg-muted">
        {image ? (
          <CardImage src={image} first={preloadImage} />
        ) : (
          <Trophy aria-hidden className="absolute inset-0 m-auto size-12 text-muted-foreground" />
        )}
        <div className="absolute top-3 left-3 flex gap-2">
          <StatusBadge phase={phase}>{badgeLabel(c, now)}</StatusBadge>
          {endingSoon(c, now) ? <StatusBadge tone="warning">Ending soon</StatusBadge> : null}
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-4 p-5">
        <div>
          <Heading className="text-lg leading-snug font-semibold">
            <Link
              href={`/competitions/${c.slug}`}
              className="outline-none after:absolute after:inset-0 after:content-['']"
            >
              {c.title}
            </Link>
          </Heading>
          <p className="mt-1 text-sm text-muted-foreground">
            Prize worth <PrizeValue competition={c} />
          </p>
        </div>
        <div>
          <p className="text-2xl font-bold">
            {formatGBP(c.ticket_price)} <span className="text-sm font-normal text-muted-foreground">per ticket</span>
          </p>
          <p className="mt-1 text-sm text-muted-foreground">Odds {oddsText(c)}</p>
        </div>
        <TicketProgress sold={c.tickets_sold} total={c.total_tickets} size="sm" />
        {phase === "cancelled" || phase === "draft" ? null : (
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-muted-foreground">Closes</dt>
              <dd className="font-medium">
                <time dateTime={c.closes_at}>{formatDateTime(c.closes_at)}</time>
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{phase === "drawn" ? "Drawn" : "Draw"}</dt>
              <dd className="font-medium">
                <time dateTime={c.draw?.drawn_at ?? c.draw_at}>{formatDateTime(c.draw?.drawn_at ?? c.draw_at)}</time>
              </dd>
            </div>
          </dl>
        )}
        <div className="mt-auto border-t border-border pt-3 text-sm">
          <CardFooter competition={c} phase={phase} now={now} />
        </div>
      </div>
    </article>
  );
}

function CardFooter({ competition: c, phase, now }: { competition: Competition; phase: Phase; now: number }) {
  switch (phase) {
    case "live":
      return (
        <Countdown
          to={c.closes_at}
          label="Closes in"
          fallback={formatDateTime(c.closes_at)}
          then={{ to: c.draw_at, label: "Draw in", fallback: formatDateTime(c.draw_at) }}
          endedLabel="Drawing now"
        />
      );
    case "upcoming":
      return <Countdown to={c.opens_at} label="Opens in" endedLabel="Open now" fallback={formatDateTime(c.opens_at)} />;
    case "postal_window":
    case "awaiting_draw":
      return <p className="font-medium">{drawPendingLine(c, now)}</p>;
    case "drawn":
      return c.draw ? (
        <p>
          Won by <span className="font-semibold">{formatWinner(c.draw)}</span> with ticket #{c.draw.winning_number}
        </p>
      ) : (
        <p>Drawn</p>
      );
    case "closed":
      return <p>Closed with no tickets at the draw time, so there is no winner.</p>;
    case "cancelled":
      return <p>Cancelled: every entry was refunded to credit.</p>;
    case "draft":
      return <p>Not published yet.</p>;
  }
}
