import Image from "next/image";
import Link from "next/link";
import { Trophy } from "lucide-react";
import type { Competition } from "@/lib/data/competitions";
import { formatDateTime, formatGBP, formatWinner } from "@/lib/format";
import { Countdown } from "./countdown";
import { endingSoon, phaseOf } from "@/lib/competitions/status";
import { StatusBadge } from "./status-badge";
import { TicketProgress } from "./ticket-progress";

/** One competition in a grid: image, price, sold/total, countdown or result. Links to its page. */
export function CompetitionCard({
  competition: c,
  now,
  headingLevel = 3,
}: {
  competition: Competition;
  now: number;
  headingLevel?: 2 | 3;
}) {
  const phase = phaseOf(c, now);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const image = c.images[0];
  return (
    <article className="group relative flex w-full flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
      <div className="relative aspect-[4/3] bg-muted">
        {image ? (
          <Image src={image} alt="" width={800} height={600} unoptimized className="size-full object-cover" />
        ) : (
          <Trophy aria-hidden className="absolute inset-0 m-auto size-12 text-muted-foreground" />
        )}
        <div className="absolute top-3 left-3 flex gap-2">
          <StatusBadge phase={phase} />
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
          <p className="mt-1 text-sm text-muted-foreground">Prize worth {formatGBP(c.prize_value)}</p>
        </div>
        <p className="text-2xl font-bold">
          {formatGBP(c.ticket_price)} <span className="text-sm font-normal text-muted-foreground">per ticket</span>
        </p>
        <TicketProgress sold={c.tickets_sold} total={c.total_tickets} size="sm" />
        <div className="mt-auto border-t border-border pt-3 text-sm">
          <CardFooter competition={c} phase={phase} />
        </div>
      </div>
    </article>
  );
}

function CardFooter({ competition: c, phase }: { competition: Competition; phase: ReturnType<typeof phaseOf> }) {
  switch (phase) {
    case "live":
      return (
        <Countdown to={c.closes_at} label="Closes in" endedLabel="Closed" fallback={formatDateTime(c.closes_at)} />
      );
    case "upcoming":
      return <Countdown to={c.opens_at} label="Opens in" endedLabel="Open now" fallback={formatDateTime(c.opens_at)} />;
    case "drawn":
      return c.draw ? (
        <p>
          Won by <span className="font-semibold">{formatWinner(c.draw)}</span> with ticket #{c.draw.winning_number}
        </p>
      ) : (
        <p>Drawn</p>
      );
    case "awaiting_draw":
      return <p>Entries closed: the draw takes place within a minute or two.</p>;
    case "closed":
      return <p>Closed with no tickets sold, so there is no winner.</p>;
    case "cancelled":
      return <p>Cancelled: every entry was refunded to credit.</p>;
    case "draft":
      return <p>Not published yet.</p>;
  }
}
