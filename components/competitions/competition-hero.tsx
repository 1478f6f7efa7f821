import type { ReactNode } from "react";
import { Link } from "@/components/ui/link";
import { Clock, ListOrdered, Radio, Trophy } from "lucide-react";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { badgeLabel, type Phase } from "@/lib/competitions/status";
import type { CompetitionPage } from "@/lib/data/competitions";
import { CompetitionDates } from "./competition-dates";
import { CompetitionFacts } from "./competition-facts";
import { CompetitionTiming } from "./competition-timing";
import { DrawResult } from "./draw-result";
import { Gallery } from "./gallery";
import { StatusBadge } from "./status-badge";
import { TicketProgress } from "./ticket-progress";

const linkClass = "inline-flex items-center gap-2 font-semibold text-primary-text underline underline-offset-4";

/**
 * The top of a competition page: pictures, title, the numbers, its prizes when it has several (`prizes`), any
 * charity it supports (`charity`), the dates, timing, and the result or cancellation.
 */
export function CompetitionHero({
  competition: c,
  phase,
  now,
  prizes,
  charity,
}: {
  competition: CompetitionPage;
  phase: Phase;
  now: number;
  prizes?: ReactNode;
  charity?: ReactNode;
}) {
  return (
    <div className="mt-6 grid gap-10 lg:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)]">
      {c.images.length > 0 ? (
        <Gallery images={c.images} title={c.title} />
      ) : (
        <div className="flex aspect-[4/3] items-center justify-center rounded-2xl border border-border bg-muted">
          <Trophy aria-hidden className="size-16 text-muted-foreground" />
        </div>
      )}

      <div className="flex flex-col gap-6">
        <div>
          <StatusBadge phase={phase}>{badgeLabel(c, now)}</StatusBadge>
          <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{c.title}</h1>
          {c.summary ? <p className="mt-3 text-lg text-muted-foreground">{c.summary}</p> : null}
        </div>

        <CompetitionFacts competition={c} />

        {prizes}

        {charity}

        <TicketProgress sold={c.tickets_sold} total={c.total_tickets} />

        <div className="flex items-start gap-3 rounded-xl border border-border p-4">
          <Clock aria-hidden className="mt-0.5 size-5 shrink-0 text-primary-text" />
          <CompetitionTiming competition={c} phase={phase} now={now} />
        </div>

        {phase === "draft" || phase === "cancelled" ? null : <CompetitionDates competition={c} />}

        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {c.entry_list_open ? (
            <Link href={`/competitions/${c.slug}/entries`} className={linkClass}>
              <ListOrdered aria-hidden className="size-4" />
              Entry list
            </Link>
          ) : null}
          {phase === "draft" || phase === "cancelled" || phase === "closed" ? null : (
            <Link href={`/competitions/${c.slug}/draw`} className={linkClass}>
              <Radio aria-hidden className="size-4" />
              {c.draw ? "The draw, step by step" : "Watch the draw live"}
            </Link>
          )}
        </div>

        {c.draw ? <DrawResult draw={c.draw} /> : null}
        {c.status === "cancelled" ? (
          <Alert variant="destructive" announce={false}>
            <AlertTitle>This competition has been cancelled</AlertTitle>
            {c.cancel_reason ? <p className="mt-1">{c.cancel_reason}</p> : null}
            <p className="mt-1">Every paid entry was refunded to credit; postal entries were withdrawn.</p>
          </Alert>
        ) : null}
      </div>
    </div>
  );
}
