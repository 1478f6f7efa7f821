import { Link } from "@/components/ui/link";
import { CalendarClock } from "lucide-react";
import { Countdown } from "@/components/competitions/countdown";
import { buttonClasses } from "@/components/ui/button";
import { formatMoment } from "@/lib/competitions/status";
import type { Competition } from "@/lib/data/competitions";

/** Where the launch countdown was, once competitions have opened: the next draw, when it is and a link to it. */
export function NextDraw({ competition: c }: { competition: Competition }) {
  return (
    <section aria-labelledby="next-draw-title" className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-border bg-primary-soft px-6 py-10 text-center">
        <CalendarClock aria-hidden className="size-8 text-primary-text" />
        <h2 id="next-draw-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Next draw
        </h2>
        <p className="text-lg">
          <Link href={`/competitions/${c.slug}`} className="font-semibold underline underline-offset-4">
            {c.title}
          </Link>{" "}
          is drawn on <time dateTime={c.draw_at}>{formatMoment(c.draw_at)}</time> (UK time).
        </p>
        <Countdown to={c.draw_at} label="Draw in" endedLabel="Drawing now" fallback={formatMoment(c.draw_at)} />
        <Link href={`/competitions/${c.slug}`} className={buttonClasses("primary", "lg")}>
          See the competition
        </Link>
      </div>
    </section>
  );
}
