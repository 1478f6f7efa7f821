import { Link } from "@/components/ui/link";
import { formatTicketNumbers, plural } from "@/lib/competitions/ticket-numbers";
import { cn } from "@/lib/utils";

/** Beyond this many, the numbers are shown as one compact line of runs instead of chips. */
const MAX_TICKET_CHIPS = 60;

/** The viewer's ticket numbers in this competition, the winning one highlighted. */
export function YourTickets({
  tickets,
  ticketsSold,
  winningNumber,
}: {
  tickets: number[];
  ticketsSold: number;
  winningNumber: number | null;
}) {
  return (
    <section aria-labelledby="my-tickets-title" className="mt-14">
      <h2 id="my-tickets-title" className="text-2xl font-bold tracking-tight">
        Your tickets
      </h2>
      {tickets.length > 0 ? (
        <>
          <p className="mt-1 text-muted-foreground">
            You hold {plural(tickets.length, "ticket")} of {ticketsSold.toLocaleString("en-GB")} sold.{" "}
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
                    winningNumber === n
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
        <p className="mt-1 text-muted-foreground">
          {winningNumber === null ? "You have no tickets in this competition yet." : "You had no tickets in this draw."}
        </p>
      )}
    </section>
  );
}
