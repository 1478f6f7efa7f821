import { Link } from "@/components/ui/link";
import { Mail } from "lucide-react";
import { formatMoment, type PostalBlock } from "@/lib/competitions/status";
import { plural } from "@/lib/competitions/ticket-numbers";
import type { Competition } from "@/lib/data/competitions";
import { formatGBP } from "@/lib/format";

/**
 * The free entry route (Gambling Act 2005 Sch. 2 para 8; code of practice 2.4), given the same space
 * and weight as paid entry on every competition page. It stays open after a sell-out, until the
 * postal deadline. Stamp parity and the count of letters come from SQL; the address is a site setting.
 */
export function PostalEntry({
  competition: c,
  address,
  block,
}: {
  competition: Competition;
  address: readonly string[];
  block: PostalBlock | null;
}) {
  const received = (
    <p data-testid="postal-entries-received">
      {plural(c.postal_entries, "postal entry", "postal entries")} received so far.
    </p>
  );
  if (block && block.code !== "competition_not_yet_open") {
    return (
      <>
        <p className="rounded-lg border border-border bg-muted p-4 font-medium">
          {block.code === "postal_deadline_passed"
            ? block.message
            : "Postal entries for this competition are closed too."}
        </p>
        {c.status === "cancelled" ? null : received}
      </>
    );
  }
  return (
    <div className="flex flex-1 flex-col gap-4">
      <p>
        You never have to pay to enter. <strong>Each letter gets {plural(c.postal_tickets_per_entry, "ticket")}</strong>
        , numbered after the online tickets, with <strong>exactly the same chance per ticket</strong>.
      </p>
      <p className="text-sm text-muted-foreground">
        As many tickets as a second-class stamp ({formatGBP(c.stamp_price)}) would buy at {formatGBP(c.ticket_price)} a
        ticket, rounded up, and always at least one. Postal and online tickets count together towards the limit of{" "}
        {plural(c.max_tickets_per_user, "ticket")} per person.
      </p>
      <div>
        <p className="font-medium">Write to</p>
        <address className="mt-1 rounded-lg bg-muted p-4 not-italic" data-testid="postal-address">
          {address.map((line, i) => (
            <span key={i} className="block">
              {line}
            </span>
          ))}
        </address>
      </div>
      <div>
        <p className="font-medium">Include</p>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>the competition: &ldquo;{c.title}&rdquo;;</li>
          <li>your full name and postal address, with your postcode;</li>
          <li>the e-mail of your LabCash account, if you have one, for a receipt with your ticket numbers;</li>
          {c.skill_question ? <li>your answer to the question &ldquo;{c.skill_question}&rdquo;.</li> : null}
        </ul>
      </div>
      <p>
        A letter (not a postcard), first or second class, arriving{" "}
        {block ? (
          <>
            after entries open,{" "}
            <time dateTime={c.opens_at} className="font-semibold">
              {formatMoment(c.opens_at)}
            </time>
            , and{" "}
          </>
        ) : null}
        by the postal deadline,{" "}
        <time dateTime={c.postal_deadline} className="font-semibold">
          {formatMoment(c.postal_deadline)}
        </time>
        , even if every online ticket has sold.
      </p>
      {received}
      <Link
        href="/docs/competitions#free-entry-by-post"
        className="mt-auto inline-flex items-center gap-2 font-semibold text-primary-text underline underline-offset-4"
      >
        <Mail aria-hidden className="size-4" />
        Free postal entry: the full rules
      </Link>
    </div>
  );
}
