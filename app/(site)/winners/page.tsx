import type { Metadata } from "next";
import Image from "next/image";
import { Link } from "@/components/ui/link";
import { PrizeStatusBadge } from "@/components/prizes/prize-progress";
import { WinnerStory } from "@/components/prizes/winner-story";
import { PRIZE_STATUS } from "@/lib/prizes/steps";
import { Radio, ShieldCheck, Trophy } from "lucide-react";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { TicketCheckForm } from "@/components/notifications/ticket-check";
import { listWinners } from "@/lib/data/competitions";
import { ordinal } from "@/lib/format";
import { formatDateTime, formatGBP, formatWinner } from "@/lib/format";

export const metadata: Metadata = {
  title: "Winners",
  description: "Every LabCash winner, with the winning ticket and a link to verify the draw in your browser.",
  alternates: { canonical: "/winners" },
};

// Static, regenerated at most every few seconds and at once after a draw (lib/cache/public-pages.ts).
export const revalidate = 2;

export default async function WinnersPage() {
  const winners = await listWinners();
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight">Winners</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Every prize drawn so far, newest first. Each draw publishes every input, so you can recompute the winning
          ticket yourself.
        </p>
        <Link
          href="/docs/fair-draws"
          className="mt-3 inline-block font-medium text-primary-text underline underline-offset-4"
        >
          How draws are verified
        </Link>
      </header>

      {winners.length > 0 ? (
        <div className="mt-8 max-w-md">
          <TicketCheckForm
            competitions={winners.filter((w) => w.prize_position === 1).map((w) => ({ slug: w.slug, title: w.title }))}
          />
        </div>
      ) : null}

      {winners.length === 0 ? (
        <EmptyState icon={<Trophy />} title="No competitions have been drawn yet" className="mt-10">
          <Link href="/competitions" className={buttonClasses("outline", "md")}>
            See the live competitions
          </Link>
        </EmptyState>
      ) : (
        <ul className="mt-10 flex flex-col gap-5">
          {winners.map((w) => {
            // With several prizes, each is its own entry, named by its place.
            const name = w.prizes > 1 ? `${w.title}, ${ordinal(w.prize_position)} prize` : w.title;
            return (
              <li key={w.draw_id}>
                <article
                  aria-labelledby={`winner-${w.draw_id}`}
                  className="flex flex-col gap-5 rounded-2xl border border-border bg-card p-5 sm:flex-row"
                >
                  {w.image ? (
                    <Image
                      src={w.image}
                      alt=""
                      width={240}
                      height={180}
                      unoptimized
                      className="aspect-[4/3] w-full rounded-lg object-cover sm:w-48"
                    />
                  ) : null}
                  <div className="flex min-w-0 flex-1 flex-col gap-3">
                    <div>
                      <h2 id={`winner-${w.draw_id}`} className="text-xl font-semibold">
                        <Link href={`/competitions/${w.slug}`} className="hover:underline">
                          {name}
                        </Link>
                      </h2>
                      <p className="text-sm text-muted-foreground">Prize worth {formatGBP(w.prize_value)}</p>
                    </div>
                    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                      <div>
                        <dt className="text-sm text-muted-foreground">Winner</dt>
                        <dd className="font-semibold">{formatWinner(w)}</dd>
                      </div>
                      <div>
                        <dt className="text-sm text-muted-foreground">Winning ticket</dt>
                        <dd className="font-semibold">
                          #{w.winning_number}{" "}
                          <span className="font-normal text-muted-foreground">
                            of {w.ticket_count.toLocaleString("en-GB")}
                          </span>
                        </dd>
                      </div>
                      <div>
                        <dt className="text-sm text-muted-foreground">Drawn</dt>
                        <dd className="font-semibold">
                          <time dateTime={w.drawn_at}>{formatDateTime(w.drawn_at)}</time>
                        </dd>
                      </div>
                      <div>
                        <dt className="text-sm text-muted-foreground">Prize</dt>
                        <dd className="flex flex-col items-start gap-1">
                          <PrizeStatusBadge status={w.prize_status} />
                          <span className="text-sm text-muted-foreground">
                            {w.delivered_at
                              ? `Delivered ${formatDateTime(w.delivered_at)}`
                              : PRIZE_STATUS[w.prize_status].public}
                          </span>
                        </dd>
                      </div>
                    </dl>
                    <p className="text-sm text-muted-foreground">{w.prize_description}</p>
                    {w.story ? <WinnerStory story={w.story} winner={formatWinner(w)} /> : null}
                    <p className="flex flex-wrap gap-x-6 gap-y-2">
                      <Link
                        href={`/winners/${w.draw_id}`}
                        className="inline-flex items-center gap-1.5 font-semibold text-primary-text underline underline-offset-4"
                        aria-label={`Verify the draw for ${name}`}
                      >
                        <ShieldCheck aria-hidden className="size-4" />
                        Verify the draw
                      </Link>
                      <Link
                        href={`/competitions/${w.slug}/draw`}
                        className="inline-flex items-center gap-1.5 font-semibold text-primary-text underline underline-offset-4"
                        aria-label={`The draw, step by step, for ${name}`}
                      >
                        <Radio aria-hidden className="size-4" />
                        The draw, step by step
                      </Link>
                    </p>
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
