import type { Phase } from "@/lib/competitions/status";
import type { CompetitionPage } from "@/lib/data/competitions";
import { formatDateTime } from "@/lib/format";
import { Countdown } from "./countdown";

/** When the competition opens, closes or was decided, as it stands in `phase`. */
export function CompetitionTiming({ competition: c, phase }: { competition: CompetitionPage; phase: Phase }) {
  switch (phase) {
    case "live":
      return (
        <div>
          <Countdown
            to={c.closes_at}
            label="Closes in"
            endedLabel="Closed"
            fallback={formatDateTime(c.closes_at)}
            className="text-lg"
          />
          <p className="text-sm text-muted-foreground">
            Closes {formatDateTime(c.closes_at)}, or as soon as the last ticket sells.
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
            Entries open {formatDateTime(c.opens_at)} and close {formatDateTime(c.closes_at)}.
          </p>
        </div>
      );
    case "awaiting_draw":
      return <p>Entries are closed. The draw runs automatically within a minute or two.</p>;
    case "drawn":
      return <p>Drawn {c.draw ? formatDateTime(c.draw.drawn_at) : ""}.</p>;
    case "closed":
      return <p>Closed {formatDateTime(c.closed_at ?? c.closes_at)} with no tickets sold, so there is no winner.</p>;
    case "cancelled":
      return <p>Cancelled {c.cancelled_at ? formatDateTime(c.cancelled_at) : ""}.</p>;
    case "draft":
      return <p>A draft: only admins can see it until it is published.</p>;
  }
}
