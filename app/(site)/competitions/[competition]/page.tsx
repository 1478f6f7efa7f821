import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CompetitionHero } from "@/components/competitions/competition-hero";
import { EntryFromPayment } from "@/components/payments/entry-from-payment";
import { HowThisDrawWorks } from "@/components/competitions/how-this-draw-works";
import { PrizeDetails } from "@/components/competitions/prize-details";
import { WaysToEnter } from "@/components/competitions/ways-to-enter";
import { YourTickets } from "@/components/competitions/your-tickets";
import { BackLink } from "@/components/ui/back-link";
import { getAccount } from "@/lib/auth/session";
import { entryBlock, oddsText, phaseOf, postalBlock, requestTime } from "@/lib/competitions/status";
import { getCompetition } from "@/lib/data/competitions";
import { getSiteSettings } from "@/lib/data/settings";
import { formatGBP } from "@/lib/format";

type Props = { params: Promise<{ competition: string }>; searchParams: Promise<{ entry?: string | string[] }> };

// Metadata and the page read the same competition once per request.
const load = cache(async (slug: string) => getCompetition(decodeURIComponent(slug)));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const c = await load((await params).competition);
  if (!c) return {};
  return {
    title: c.title,
    description:
      c.summary || `Win ${c.title}: tickets ${formatGBP(c.ticket_price)}, odds ${oddsText(c)}. Free entry by post.`,
    alternates: { canonical: `/competitions/${c.slug}` },
    openGraph: { title: c.title, description: c.summary, images: c.images.slice(0, 1) },
  };
}

export default async function CompetitionDetailPage({ params, searchParams }: Props) {
  const c = await load((await params).competition);
  if (!c) notFound();
  const [account, settings] = await Promise.all([getAccount(), getSiteSettings()]);
  const now = requestTime();
  const phase = phaseOf(c, now);
  // Back from /payment/competition: the entry the top-up paid for.
  const { entry } = await searchParams;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <BackLink href="/competitions">All competitions</BackLink>
      <CompetitionHero competition={c} phase={phase} now={now} />
      {account && typeof entry === "string" ? <EntryFromPayment entryId={entry} /> : null}
      <WaysToEnter
        competition={c}
        account={account}
        block={entryBlock(c, now)}
        postalBlock={postalBlock(c, now)}
        postalAddress={settings.postal_address}
      />
      {c.my_tickets ? (
        <YourTickets
          tickets={c.my_tickets}
          ticketsSold={c.tickets_sold}
          winningNumber={c.draw?.winning_number ?? null}
        />
      ) : null}
      <div className="mt-14 grid gap-10 lg:grid-cols-2">
        <PrizeDetails competition={c} />
        <HowThisDrawWorks competition={c} />
      </div>
    </div>
  );
}
