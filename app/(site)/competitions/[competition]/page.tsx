import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CompetitionHero } from "@/components/competitions/competition-hero";
import { EntryFromPayment } from "@/components/payments/entry-from-payment";
import { FairDraw } from "@/components/competitions/fair-draw";
import { PrizeDetails } from "@/components/competitions/prize-details";
import { WaysToEnter } from "@/components/competitions/ways-to-enter";
import { YourTickets } from "@/components/competitions/your-tickets";
import { BackLink } from "@/components/ui/back-link";
import { getAccount } from "@/lib/auth/session";
import { entryBlock, phaseOf, requestTime } from "@/lib/competitions/status";
import { getCompetition } from "@/lib/data/competitions";
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
      c.summary ||
      `Win ${c.title}: tickets ${formatGBP(c.ticket_price)}, ${c.total_tickets.toLocaleString("en-GB")} tickets, free postal entry.`,
    alternates: { canonical: `/competitions/${c.slug}` },
    openGraph: { title: c.title, description: c.summary, images: c.images.slice(0, 1) },
  };
}

export default async function CompetitionDetailPage({ params, searchParams }: Props) {
  const c = await load((await params).competition);
  if (!c) notFound();
  const account = await getAccount();
  const now = requestTime();
  // Back from /payment/competition: the entry the top-up paid for.
  const { entry } = await searchParams;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <BackLink href="/competitions">All competitions</BackLink>
      <CompetitionHero competition={c} phase={phaseOf(c, now)} />
      {account && typeof entry === "string" ? <EntryFromPayment entryId={entry} /> : null}
      <WaysToEnter competition={c} account={account} block={entryBlock(c, now)} />
      {c.my_tickets ? (
        <YourTickets
          tickets={c.my_tickets}
          ticketsSold={c.tickets_sold}
          winningNumber={c.draw?.winning_number ?? null}
        />
      ) : null}
      <div className="mt-14 grid gap-10 lg:grid-cols-2">
        <PrizeDetails competition={c} />
        <FairDraw competition={c} />
      </div>
    </div>
  );
}
