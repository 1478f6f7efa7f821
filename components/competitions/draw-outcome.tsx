"use client";

import { PartyPopper } from "lucide-react";
import { Link } from "@/components/ui/link";
import { drawOutcome, type PrizeWinner } from "@/lib/draws/live-draw";
import { usePersonal } from "@/lib/hooks/use-personal";
import type { CompetitionPersonal } from "./competition-personal";

/**
 * The signed-in viewer's own result under a revealed draw: "You won!", "Your tickets did not win this time." or
 * that they held none. The draw page is one cached document for everyone, so it is asked for here, from the
 * competition's personal route, only once the reveal has ended (this is mounted then); signed out, nothing is asked
 * and nothing shown. It renders inside the reveal's live region, which announces it.
 */
export function DrawOutcomeForViewer({ slug, winners }: { slug: string; winners: readonly PrizeWinner[] }) {
  const personal = usePersonal<CompetitionPersonal>(`/api/competitions/${encodeURIComponent(slug)}/personal`);
  if (!personal) return null;
  const outcome = drawOutcome(personal.myTickets, winners);
  if (outcome.kind !== "won") return <p className="mt-2 font-semibold">{outcome.sentence}</p>;
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-2 text-xl font-bold text-primary-text">
      <PartyPopper aria-hidden className="size-6" />
      {outcome.sentence}{" "}
      <Link href="/account/prizes" className="text-base underline underline-offset-4">
        Claim your prize
      </Link>
    </p>
  );
}
