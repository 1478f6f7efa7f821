import { drawDue, drawPendingLine, formatMoment, isSoldOut, type Phase } from "@/lib/competitions/status";
import type { CompetitionPage } from "@/lib/data/competitions";
import { formatDateTime } from "@/lib/format";
import { Countdown } from "./countdown";

/** Where the competition is in its dates: the countdown to the close and then the draw, or the outcome. */
export function CompetitionTiming({
  competition: c,
  phase,
  now,
}: {
  competition: CompetitionPage;
  phase: Phase;
  now: number;
}) {
  const toDraw = { to: c.draw_at, label: "Draw in", fallback: formatDateTime(c.draw_at) };
  switch (phase) {
    case "live":
      return (
        <div>
          <Countdown
            to={c.closes_at}
            label="Closes in"
            fallback={formatDateTime(c.closes_at)}
            then={toDraw}
            endedLabel="Drawing now"
            className="text-lg"
          />
          <p className="text-sm text-muted-foreground">
            Online entries close {formatMoment(c.closes_at)}; the draw is {formatMoment(c.draw_at)}.
          </p>
        </div>
      );
    case "upcoming":
      return (
        <div>
          <Countdown
            to={c.opens_at}
            label="Opens in"
            endedLabel="Open now: reload to enter"
            fallback={formatDateTime(c.opens_at)}
            className="text-lg"
          />
          <p className="text-sm text-muted-foreground">
            Entries open {formatMoment(c.opens_at)} and close {formatMoment(c.closes_at)}.
          </p>
        </div>
      );
    case "postal_window":
    case "awaiting_draw":
      return (
        <div>
          <p className="text-lg font-semibold">{drawPendingLine(c, now)}</p>
          {drawDue(c, now) ? (
            <p className="text-sm text-muted-foreground">The draw runs automatically within a minute or two.</p>
          ) : (
            <>
              <Countdown {...toDraw} endedLabel="Drawing now" />
              <p className="text-sm text-muted-foreground">
                {phase === "postal_window"
                  ? `${isSoldOut(c) ? "Every online ticket has sold, but free" : "Free"} postal entries are still accepted until ${formatMoment(c.postal_deadline)}.`
                  : `The postal deadline has passed; every ticket is in the draw.`}
              </p>
            </>
          )}
        </div>
      );
    case "drawn":
      return <p>Drawn {c.draw ? formatMoment(c.draw.drawn_at) : ""}.</p>;
    case "closed":
      return <p>No tickets were entered by the draw time ({formatMoment(c.draw_at)}), so there is no winner.</p>;
    case "cancelled":
      return <p>Cancelled {c.cancelled_at ? formatMoment(c.cancelled_at) : ""}.</p>;
    case "draft":
      return <p>A draft: only admins can see it until it is published.</p>;
  }
}
