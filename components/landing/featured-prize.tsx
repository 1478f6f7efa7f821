import { Link } from "@/components/ui/link";
import { Trophy } from "lucide-react";
import { CardImage } from "@/components/competitions/card-image";
import { Countdown } from "@/components/competitions/countdown";
import { PrizeValue } from "@/components/competitions/prize-value";
import { StatusBadge } from "@/components/competitions/status-badge";
import { buttonClasses } from "@/components/ui/button";
import { endingSoon, oddsText } from "@/lib/competitions/status";
import type { Competition } from "@/lib/data/competitions";
import { formatDateTime, formatGBP } from "@/lib/format";
import { cn } from "@/lib/utils";

/**
 * The home page's first screen on a phone as on a desktop: the live prize closing soonest, with what a player
 * decides on (picture, prize, ticket price, odds, time left) and "Enter" (docs/decisions/051). Its picture is the
 * page's largest paint, so it is loaded first.
 */
export function FeaturedPrize({
  competition: c,
  now,
  className,
}: {
  competition: Competition;
  now: number;
  className?: string;
}) {
  const image = c.images[0];
  const path = `/competitions/${c.slug}`;
  return (
    <section
      aria-labelledby="featured-prize-label"
      className={cn(
        "relative flex flex-col overflow-hidden rounded-2xl border border-border bg-card text-card-foreground shadow-sm focus-within:ring-2 focus-within:ring-ring",
        className,
      )}
    >
      {/* The picture fills the box rather than sizing it: a wider box than the picture's 4:3 keeps the card short. */}
      <div className="relative aspect-[16/9] bg-muted sm:aspect-[16/10] [&>img]:absolute [&>img]:inset-0">
        {image ? (
          <CardImage src={image} first />
        ) : (
          <Trophy aria-hidden className="absolute inset-0 m-auto size-12 text-muted-foreground" />
        )}
        <div className="absolute top-3 left-3 flex gap-2">
          <StatusBadge tone="primary">
            <span id="featured-prize-label">Featured prize</span>
          </StatusBadge>
          {endingSoon(c, now) ? <StatusBadge tone="warning">Ending soon</StatusBadge> : null}
        </div>
      </div>
      <div className="flex flex-col gap-3 p-4 sm:p-5">
        <div>
          <h2 className="text-xl leading-snug font-bold sm:text-2xl">
            <Link href={path} className="outline-none after:absolute after:inset-0 after:content-['']">
              {c.title}
            </Link>
          </h2>
          <p className="mt-0.5 text-sm text-muted-foreground">
            Prize worth <PrizeValue competition={c} />
          </p>
        </div>
        <p className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5">
          <span className="text-2xl font-bold">
            {formatGBP(c.ticket_price)} <span className="text-sm font-normal text-muted-foreground">per ticket</span>
          </span>
          <span className="text-sm text-muted-foreground">Odds {oddsText(c)}</span>
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Countdown
            to={c.closes_at}
            label="Closes in"
            fallback={formatDateTime(c.closes_at)}
            then={{ to: c.draw_at, label: "Draw in", fallback: formatDateTime(c.draw_at) }}
            endedLabel="Drawing now"
          />
          {/* Above the card's own link (it covers the card), so a tap here is this link's. */}
          <Link href={path} className={buttonClasses("primary", "lg", "relative z-10 min-w-32")}>
            Enter<span className="sr-only"> {c.title}</span>
          </Link>
        </div>
      </div>
    </section>
  );
}
