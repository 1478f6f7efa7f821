import { Link } from "@/components/ui/link";
import { ShieldCheck, Trophy } from "lucide-react";
import { WinnerStory } from "@/components/prizes/winner-story";
import { buttonClasses } from "@/components/ui/button";
import type { CompetitionPage } from "@/lib/data/competitions";
import { formatDateTime, formatWinner } from "@/lib/format";
import { WinnerHeading } from "./competition-personal";

type Draw = NonNullable<CompetitionPage["draw"]>;

/** The winner and winning ticket of a drawn competition, with "You won!" when it is the viewer's ticket. */
export function DrawResult({ draw }: { draw: Draw }) {
  return (
    <section aria-labelledby="winner-title" className="rounded-xl border-2 border-primary bg-primary-soft p-5">
      <h2 id="winner-title" className="flex items-center gap-2 text-lg font-bold">
        <Trophy aria-hidden className="size-5 text-primary-text" />
        <WinnerHeading winningNumber={draw.winning_number} />
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3">
        <div>
          <dt className="text-sm text-muted-foreground">Winner</dt>
          <dd className="text-lg font-bold" data-testid="winner-name">
            {formatWinner(draw)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">Winning ticket</dt>
          <dd className="text-lg font-bold" data-testid="winning-ticket">
            #{draw.winning_number}{" "}
            <span className="text-sm font-normal text-muted-foreground">
              of {draw.ticket_count.toLocaleString("en-GB")}
            </span>
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-sm text-muted-foreground">Drawn {formatDateTime(draw.drawn_at)}.</p>
      {draw.story ? <WinnerStory story={draw.story} winner={formatWinner(draw)} className="mt-4" /> : null}
      <Link href={`/winners/${draw.id}`} className={buttonClasses("primary", "md", "mt-4")}>
        <ShieldCheck aria-hidden />
        Verify this draw
      </Link>
    </section>
  );
}
