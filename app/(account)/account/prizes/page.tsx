import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Gift } from "lucide-react";
import { PrizeClaimForm } from "@/components/prizes/prize-claim-form";
import { PrizeStatusBadge, PrizeTimeline } from "@/components/prizes/prize-progress";
import { StoryConsentForm } from "@/components/prizes/story-consent-form";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { getMyPrizes, type MyPrize } from "@/lib/data/competitions";
import { formatDateTime, formatPounds, ordinal } from "@/lib/format";
import { PRIZE_STATUS } from "@/lib/prizes/steps";

export const metadata: Metadata = { title: "My prizes" };

/** What the winner claimed, in a line: the cash, or the prize and where it goes. */
function claimLine(prize: MyPrize): string | null {
  if (prize.prize_status === "awaiting_claim") return null;
  if (prize.prize_choice === "cash" && prize.cash_alternative !== null) {
    return `You chose ${formatPounds(prize.cash_alternative)} cash.`;
  }
  return prize.delivery_address ? `You chose the prize, sent to: ${prize.delivery_address}` : "You chose the prize.";
}

// The winner's prizes: "Claim your prize" (prize or cash, delivery address) until an admin verifies the claim,
// then each step's date and, once delivered, the proof reference. The win e-mail links here.
export default async function MyPrizesPage() {
  await requireUser("/account/prizes");
  const prizes = await getMyPrizes();
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="My prizes" description="Claim what you won and follow it until it reaches you." />
      {prizes.length === 0 ? (
        <EmptyState
          icon={<Gift />}
          title="No prizes yet."
          description="When one of your tickets wins, you claim the prize here."
        />
      ) : (
        <ul className="flex flex-col gap-4">
          {prizes.map((prize) => {
            const open = prize.prize_status === "awaiting_claim" || prize.prize_status === "claimed";
            const line = claimLine(prize);
            return (
              <li key={prize.draw_id} id={`prize-${prize.draw_id}`}>
                <Card className="p-5">
                  <article aria-labelledby={`prize-title-${prize.draw_id}`} className="flex flex-col gap-4">
                    <header className="flex flex-wrap items-start justify-between gap-3">
                      <div>
                        <h2 id={`prize-title-${prize.draw_id}`} className="text-lg font-semibold">
                          {prize.competition.title}
                          {prize.prizes > 1 ? `, ${ordinal(prize.prize_position)} prize` : null}
                        </h2>
                        <p className="text-sm text-muted-foreground">
                          Ticket #{prize.winning_number} won on {formatDateTime(prize.drawn_at)} ·{" "}
                          <Link href={`/winners/${prize.draw_id}`} className="text-primary-text underline">
                            check the draw
                          </Link>
                        </p>
                      </div>
                      <PrizeStatusBadge status={prize.prize_status} />
                    </header>
                    <p>
                      You won {prize.prize_description}
                      {prize.cash_alternative === null
                        ? "."
                        : `, or ${formatPounds(prize.cash_alternative)} cash instead.`}{" "}
                      {PRIZE_STATUS[prize.prize_status].winner}
                    </p>
                    {line ? <p className="text-sm whitespace-pre-line">{line}</p> : null}
                    <PrizeTimeline prize={prize} proof={prize.proof_of_delivery} />
                    {open ? (
                      <section aria-labelledby={`claim-${prize.draw_id}`} className="flex flex-col gap-3">
                        <h3 id={`claim-${prize.draw_id}`} className="font-semibold">
                          {prize.prize_status === "claimed" ? "Change your claim" : "Claim your prize"}
                        </h3>
                        <PrizeClaimForm prize={prize} />
                      </section>
                    ) : null}
                    <div className="flex flex-col gap-3">
                      <h3 className="font-semibold">Your photo and quote</h3>
                      <p className="text-sm text-muted-foreground">
                        {prize.story?.consent
                          ? prize.story.published
                            ? "Published on the winners page with your consent."
                            : "You consent: we will be in touch for a photo and a few words."
                          : "Not published: we only show a winner's photo and words with their consent."}
                      </p>
                      <StoryConsentForm prize={prize} />
                    </div>
                  </article>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
