import { Trophy } from "lucide-react";
import { CardImage } from "@/components/competitions/card-image";
import { Link } from "@/components/ui/link";
import type { Competition } from "@/lib/data/competitions";
import { formatDateTime, formatGBP } from "@/lib/format";

/** The prizes open now, closing soonest first, as a short list beside a friend's invite (each a link to its page). */
export function LivePrizes({ competitions }: { competitions: Competition[] }) {
  if (competitions.length === 0) return null;
  return (
    <section aria-labelledby="live-prizes" className="flex flex-col gap-3">
      <h2 id="live-prizes" className="text-lg font-semibold">
        Prizes you can win now
      </h2>
      <ul className="flex flex-col gap-3">
        {competitions.map((c) => (
          <li key={c.id} className="relative flex items-center gap-3 rounded-xl border border-border bg-card p-2">
            <div className="relative size-16 shrink-0 overflow-hidden rounded-lg bg-muted">
              {c.images[0] ? (
                <CardImage src={c.images[0]} first={false} />
              ) : (
                <Trophy aria-hidden className="absolute inset-0 m-auto size-6 text-muted-foreground" />
              )}
            </div>
            <div className="min-w-0 text-sm">
              <Link
                href={`/competitions/${c.slug}`}
                className="font-semibold break-words after:absolute after:inset-0 after:content-['']"
              >
                {c.title}
              </Link>
              <p className="text-muted-foreground">
                {formatGBP(c.ticket_price)} a ticket · closes{" "}
                <time dateTime={c.closes_at}>{formatDateTime(c.closes_at)}</time>
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
