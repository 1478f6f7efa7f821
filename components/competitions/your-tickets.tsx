import { Link } from "@/components/ui/link";
import type { Phase } from "@/lib/competitions/status";
import { formatTicketNumbers, plural } from "@/lib/competitions/ticket-numbers";
import { drawOutcome, type PrizeWinner } from "@/lib/draws/live-draw";
import { cn } from "@/lib/utils";

/** Beyond this many, the numbers are shown as one compact line of runs instead of chips. */
const MAX_TICKET_CHIPS = 60;

/** What the viewer is told when they hold no ticket: "yet" only while they still could enter. */
function noTicketsSentence(phase: Phase, winners: readonly PrizeWinner[] | null): string {
  if (winners !== null) return drawOutcome([], winners).sentence;
  return phase === "upcoming" || phase === "live" || phase === "postal_window"
    ? "You have no tickets in this competition yet."
    : "You have no tickets in this competition.";
}

/**
 * The viewer's ticket numbers in this competition, the winning ones highlighted; once drawn (`winners`: every
 * prize's winning ticket), in the past tense with what the draw meant for them.
 */
export function YourTickets({
  tickets,
  ticketsSold,
  phase,
  winners,
}: {
  tickets: number[];
  ticketsSold: number;
  phase: Phase;
  winners: readonly PrizeWinner[] | null;
}) {
  return (
    <section aria-labelledby="my-tickets-title" className="mt-14">
      <h2 id="my-tickets-title" className="text-2xl font-bold tracking-tight">
        Your tickets
      </h2>
      {tickets.length > 0 ? (
        <>
          <p className="mt-1 text-muted-foreground">
            {winners === null ? "You hold" : "You held"} {plural(tickets.length, "ticket")} of{" "}
            {ticketsSold.toLocaleString("en-GB")} sold.{" "}
            {winners === null ? null : (
              <span className="font-semibold text-foreground">{drawOutcome(tickets, winners).sentence} </span>
            )}
            <Link href="/account/entries" className="font-medium text-primary-text underline underline-offset-4">
              All my entries
            </Link>
          </p>
          {tickets.length > MAX_TICKET_CHIPS ? (
            <p className="mt-4 rounded-lg bg-muted p-3 font-mono text-sm">{formatTicketNumbers(tickets)}</p>
          ) : (
            <ul aria-label="Your ticket numbers" className="mt-4 flex flex-wrap gap-2">
              {tickets.map((n) => (
                <li
                  key={n}
                  className={cn(
                    "rounded-md px-2.5 py-1 font-mono text-sm",
                    winners?.some((w) => w.winning_number === n)
                      ? "border-2 border-primary bg-primary-soft font-bold text-primary-text"
                      : "border border-border bg-muted",
                  )}
                >
                  #{n}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p className="mt-1 text-muted-foreground">{noTicketsSentence(phase, winners)}</p>
      )}
    </section>
  );
}
