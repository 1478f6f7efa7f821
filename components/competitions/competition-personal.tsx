"use client";

import { createContext, use, useSyncExternalStore } from "react";
import type { EntryBlock, Phase } from "@/lib/competitions/status";
import type { PrizeWinner } from "@/lib/draws/live-draw";
import { usePersonal } from "@/lib/hooks/use-personal";
import { EntryFromPayment } from "@/components/payments/entry-from-payment";
import { OnlineEntry, type OnlineEntryCompetition, type OnlineEntryViewer } from "./online-entry";
import { YourTickets } from "./your-tickets";

// A competition page is one static document for everyone (the signed-out view); what is the
// signed-in visitor's own (the entry form with their quote, their tickets, "You won!", the entry a
// payment just bought) comes from GET /api/competitions/{slug}/personal into these islands.

/** What the signed-in visitor sees of a competition (null when signed out). */
export type CompetitionPersonal = {
  viewer: OnlineEntryViewer;
  myTickets: number[];
  /** The ticket numbers of `?entry=<id>` (back from a payment) when it is the visitor's paid entry. */
  paidEntryTickets: number[] | null;
};

const PersonalContext = createContext<CompetitionPersonal | null>(null);

const noSubscription = () => () => {};

/**
 * Reads the visitor's part of competition `slug` once per render of the page (`version` changes
 * when the server renders it again, e.g. after a purchase) and hands it to the islands inside.
 */
export function CompetitionPersonalProvider({
  slug,
  version,
  children,
}: {
  slug: string;
  version: number;
  children: React.ReactNode;
}) {
  // Back from /payment/competition the address has ?entry=<id>; the static page cannot know it.
  const search = useSyncExternalStore(
    noSubscription,
    () => window.location.search,
    () => "",
  );
  const entry = new URLSearchParams(search).get("entry");
  const url = `/api/competitions/${encodeURIComponent(slug)}/personal${entry ? `?entry=${encodeURIComponent(entry)}` : ""}`;
  const personal = usePersonal<CompetitionPersonal>(url, version);
  return <PersonalContext value={personal}>{children}</PersonalContext>;
}

/** "You won!" over the result when the winning ticket is the visitor's, else "The winner". */
export function WinnerHeading({ winningNumber }: { winningNumber: number }) {
  const personal = use(PersonalContext);
  return personal?.myTickets.includes(winningNumber) ? "You won!" : "The winner";
}

/** The paid entry card: the signed-out view (server-rendered, `children`) until the visitor's own. */
export function PersonalOnlineEntry({
  competition,
  block,
  postalOpen,
  children,
}: {
  competition: OnlineEntryCompetition;
  block: EntryBlock | null;
  postalOpen: boolean;
  children: React.ReactNode;
}) {
  const personal = use(PersonalContext);
  if (!personal) {
    return (
      <>
        {/* With a session cookie, a placeholder instead of "Sign in to enter" until the answer. */}
        <div aria-hidden className="hidden h-40 animate-pulse rounded-lg bg-muted [[data-session]_&]:block" />
        <div className="contents [[data-session]_&]:hidden">{children}</div>
      </>
    );
  }
  return <OnlineEntry competition={competition} viewer={personal.viewer} block={block} postalOpen={postalOpen} />;
}

/** "Your tickets", for a signed-in visitor. */
export function PersonalTickets({
  ticketsSold,
  phase,
  winners,
}: {
  ticketsSold: number;
  phase: Phase;
  winners: readonly PrizeWinner[] | null;
}) {
  const personal = use(PersonalContext);
  if (!personal) return null;
  return <YourTickets tickets={personal.myTickets} ticketsSold={ticketsSold} phase={phase} winners={winners} />;
}

/** "Payment received: you're in!" with the tickets the top-up bought. */
export function PersonalPaidEntry() {
  const personal = use(PersonalContext);
  return personal?.paidEntryTickets ? <EntryFromPayment ticketNumbers={personal.paidEntryTickets} /> : null;
}
