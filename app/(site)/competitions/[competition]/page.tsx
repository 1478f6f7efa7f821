import type { Metadata } from "next";
import { notFoundMetadata } from "@/components/errors/not-found-boundary";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CharityLine, CharityPartner } from "@/components/charities/charity-partner";
import { CompetitionHero } from "@/components/competitions/competition-hero";
import {
  CompetitionPersonalProvider,
  PersonalPaidEntry,
  PersonalTickets,
} from "@/components/competitions/competition-personal";
import { HowThisDrawWorks } from "@/components/competitions/how-this-draw-works";
import { InstantWinsSection } from "@/components/competitions/instant-wins";
import { TicketCheckForm } from "@/components/notifications/ticket-check";
import { PrizeDetails } from "@/components/competitions/prize-details";
import { PrizeList } from "@/components/competitions/prize-list";
import { StickyEntryBar } from "@/components/competitions/sticky-entry-bar";
import { ENTER_ONLINE_ID, WaysToEnter } from "@/components/competitions/ways-to-enter";
import { BackLink } from "@/components/ui/back-link";
import { entryBlock, oddsText, phaseOf, postalBlock, requestTime } from "@/lib/competitions/status";
import { getCompetitionCharity } from "@/lib/data/charities";
import { getCompetitionPrizes } from "@/lib/data/competition-prizes";
import { getPublicCompetition } from "@/lib/data/competitions";
import { getInstantWins } from "@/lib/data/instant-wins";
import { getPublicSiteSettings } from "@/lib/data/settings";
import { formatDateTime, formatGBP } from "@/lib/format";

type Props = { params: Promise<{ competition: string }> };

// Static per competition, the same for everyone: rendered on its first visit, regenerated at most
// every few seconds and at once when the app changes it (lib/cache/public-pages.ts; next.config's
// expireTime caps how stale it is served). What is the visitor's own comes from the
// CompetitionPersonalProvider islands.
export const revalidate = 2;
export const generateStaticParams = () => [];

// Metadata and the page read the same competition once per render.
const load = cache(async (slug: string) => getPublicCompetition(decodeURIComponent(slug)));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const c = await load((await params).competition);
  if (!c) return notFoundMetadata;
  return {
    title: c.title,
    description:
      c.summary || `Win ${c.title}: tickets ${formatGBP(c.ticket_price)}, odds ${oddsText(c)}. Free entry by post.`,
    alternates: { canonical: `/competitions/${c.slug}` },
    openGraph: { title: c.title, description: c.summary, images: c.images.slice(0, 1) },
  };
}

export default async function CompetitionDetailPage({ params }: Props) {
  const c = await load((await params).competition);
  if (!c) notFound();
  const [settings, instantWins, charity, prizes] = await Promise.all([
    getPublicSiteSettings(),
    getInstantWins(c.slug),
    getCompetitionCharity(c.slug),
    getCompetitionPrizes(c.slug),
  ]);
  const winners = c.draw
    ? prizes.flatMap((p) =>
        p.winning_number === null ? [] : [{ prize_position: p.prize_position, winning_number: p.winning_number }],
      )
    : null;
  const now = requestTime();
  const phase = phaseOf(c, now);
  const block = entryBlock(c, now);

  return (
    <CompetitionPersonalProvider slug={c.slug} version={now}>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <BackLink href="/competitions">All competitions</BackLink>
        <CompetitionHero
          competition={c}
          phase={phase}
          now={now}
          prizes={prizes.length > 1 ? <PrizeList prizes={prizes} drawn={c.draw !== null} /> : null}
          charity={charity ? <CharityLine charity={charity} /> : null}
        />
        <PersonalPaidEntry />
        <WaysToEnter
          competition={c}
          block={block}
          postalBlock={postalBlock(c, now)}
          postalAddress={settings.postal_address}
          promoter={settings.promoter}
        />
        <PersonalTickets ticketsSold={c.tickets_sold} phase={phase} winners={winners} />
        {instantWins ? <InstantWinsSection competitionId={c.id} data={instantWins} /> : null}
        <div className="mt-14 grid gap-10 lg:grid-cols-2">
          {/* The check sits under the prize, in the column beside the long "How this draw works". */}
          <div className="space-y-10">
            <PrizeDetails competition={c} />
            {charity ? <CharityPartner charity={charity} status={c.status} /> : null}
            <TicketCheckForm competitions={[{ slug: c.slug, title: c.title }]} />
          </div>
          <HowThisDrawWorks competition={c} prizes={prizes.length} />
        </div>
        {phase === "live" && block === null ? (
          <StickyEntryBar
            panelId={ENTER_ONLINE_ID}
            price={formatGBP(c.ticket_price)}
            closes={{ to: c.closes_at, label: "Closes in", fallback: formatDateTime(c.closes_at) }}
            draw={{ to: c.draw_at, label: "Draw in", fallback: formatDateTime(c.draw_at) }}
          />
        ) : null}
      </div>
    </CompetitionPersonalProvider>
  );
}
