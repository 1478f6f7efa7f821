import { Link } from "@/components/ui/link";
import { Award, Ticket } from "lucide-react";
import type { EntryBlock, PostalBlock } from "@/lib/competitions/status";
import type { CompetitionPage } from "@/lib/data/competitions";
import { PersonalOnlineEntry } from "./competition-personal";
import { OnlineEntry, type OnlineEntryCompetition } from "./online-entry";
import { PostalEntry } from "./postal-entry";
import { WhoCanEnter, type Promoter } from "./who-can-enter";

const linkClass = "font-medium text-primary-text underline underline-offset-4";

/** The "Enter online" card's id: the phone's entry bar brings it into view and focuses it. */
export const ENTER_ONLINE_ID = "enter-online";

/**
 * "Two ways to enter": paid online entry and free postal entry, side by side with equal weight,
 * after what entrants must know before they enter: how a winner is named (CAP 8.28.5), who may enter and
 * who the promoter is (CAP 8.17).
 */
export function WaysToEnter({
  competition: c,
  block,
  postalBlock,
  postalAddress,
  promoter,
}: {
  competition: CompetitionPage;
  block: EntryBlock | null;
  postalBlock: PostalBlock | null;
  postalAddress: readonly string[];
  /** Named, with the 18+ and UK-only restriction, before either way to enter (CAP code 8.17). */
  promoter: Promoter;
}) {
  const postalOpen = postalBlock === null;
  const entryFields: OnlineEntryCompetition = {
    id: c.id,
    slug: c.slug,
    title: c.title,
    ticket_price: c.ticket_price,
    max_tickets_per_user: c.max_tickets_per_user,
    skill_question: c.skill_question,
    skill_options: c.skill_options,
    ticket_numbering: c.ticket_numbering,
    total_tickets: c.total_tickets,
  };
  return (
    <section aria-labelledby="enter-title" className="mt-14">
      <h2 id="enter-title" className="text-2xl font-bold tracking-tight">
        Two ways to enter
      </h2>
      <p className="mt-1 text-muted-foreground">Paid or free, every ticket has the same chance of winning.</p>
      {c.ticket_numbering === "pick" ? (
        <p className="mt-3 max-w-3xl">
          On this competition you pick your own ticket numbers from 1 to {c.total_tickets.toLocaleString("en-GB")}, or
          take a lucky dip. Numbers you choose are held in your basket for a few minutes. Postal entries get numbers
          after {c.total_tickets.toLocaleString("en-GB")}.
        </p>
      ) : null}
      <p className="mt-3 max-w-3xl" data-testid="winner-publicity">
        If you win, we publish your first name, surname initial and town on this page and the{" "}
        <Link href="/winners" className={linkClass}>
          winners page
        </Link>
        , or your initials only if you choose that in{" "}
        <Link href="/account/profile" className={linkClass}>
          your profile
        </Link>{" "}
        before the draw.
      </p>
      <WhoCanEnter promoter={promoter} />
      <div className="mt-6 grid gap-6 md:grid-cols-2">
        <article
          id={ENTER_ONLINE_ID}
          tabIndex={-1}
          aria-labelledby="enter-online-title"
          className="flex min-w-0 scroll-mt-20 flex-col gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <h3 id="enter-online-title" className="flex items-center gap-2 text-xl font-bold">
            <Ticket aria-hidden className="size-5 text-primary-text" />
            Enter online
          </h3>
          <PersonalOnlineEntry competition={entryFields} block={block} postalOpen={postalOpen}>
            <OnlineEntry
              competition={entryFields}
              viewer={null}
              block={block}
              postalOpen={postalOpen}
              bundles={c.bundles}
            />
          </PersonalOnlineEntry>
        </article>
        <article
          aria-labelledby="enter-post-title"
          className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm"
        >
          <h3 id="enter-post-title" className="flex items-center gap-2 text-xl font-bold">
            <Award aria-hidden className="size-5 text-primary-text" />
            Enter free by post
          </h3>
          <PostalEntry competition={c} address={postalAddress} block={postalBlock} />
        </article>
      </div>
    </section>
  );
}
