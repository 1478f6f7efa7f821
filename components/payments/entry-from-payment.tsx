import { PartyPopper } from "lucide-react";
import { formatTicketNumbers } from "@/lib/competitions/ticket-numbers";

/**
 * On a competition's page after /payment/competition (`?entry=<id>`): the tickets the confirmed
 * top-up bought (GET /api/competitions/{slug}/personal reads only the caller's own entries).
 */
export function EntryFromPayment({ ticketNumbers }: { ticketNumbers: number[] }) {
  const n = ticketNumbers.length;
  return (
    <div role="status" className="mt-8 rounded-lg border border-primary/40 bg-primary-soft p-4">
      <p className="flex items-center gap-2 text-lg font-bold">
        <PartyPopper aria-hidden className="size-5 text-primary-text" />
        Payment received: you&apos;re in!
      </p>
      <p className="mt-1">
        Your {n === 1 ? "ticket number" : "ticket numbers"}:{" "}
        <span className="font-semibold" data-testid="paid-entry-tickets">
          {formatTicketNumbers(ticketNumbers)}
        </span>
      </p>
    </div>
  );
}
