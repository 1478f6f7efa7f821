import { Link } from "@/components/ui/link";
import { PlayBlockNotice } from "@/components/account/play-block-notice";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { PENDING_APPROVAL_PATH, pendingApprovalPath } from "@/lib/auth/paths";
import type { EntryBlock } from "@/lib/competitions/status";
import type { Competition, EntryQuote, TicketBundle } from "@/lib/data/competitions";
import { plural } from "@/lib/competitions/ticket-numbers";
import { formatGBP, formatLondonTime } from "@/lib/format";
import { EntryPanel } from "./entry-panel";

/** The competition fields the entry card shows (what a client island is sent, not the whole competition). */
export type OnlineEntryCompetition = Pick<
  Competition,
  | "id"
  | "slug"
  | "title"
  | "ticket_price"
  | "max_tickets_per_user"
  | "skill_question"
  | "skill_options"
  | "ticket_numbering"
  | "total_tickets"
>;

/** The signed-in visitor as the card needs them: approved with their quote (from SQL), or not (yet). */
export type OnlineEntryViewer = { approved: true; quote: EntryQuote } | { approved: false; rejected: boolean };

/**
 * The paid entry card for whoever is looking: sign in, wait for approval, or the entry form
 * with the caller's quote (worked out in SQL). A closed competition shows why, for everyone.
 * The static page renders it signed out; the PersonalOnlineEntry island renders it for the viewer.
 */
export function OnlineEntry({
  competition: c,
  viewer,
  block,
  postalOpen,
  bundles = [],
}: {
  competition: OnlineEntryCompetition;
  /** null when signed out (the static page). */
  viewer: OnlineEntryViewer | null;
  block: EntryBlock | null;
  /** Letters are still accepted: said beside a sell-out or close, so nobody thinks the draw is over. */
  postalOpen: boolean;
  /** What a signed-out visitor is shown a bundle costs (from SQL); the form quotes the signed-in. */
  bundles?: readonly TicketBundle[];
}) {
  const price = (
    <p>
      <span className="text-2xl font-bold">{formatGBP(c.ticket_price)}</span>{" "}
      <span className="text-muted-foreground">per ticket, paid from your LabCash credit.</span>
    </p>
  );
  if (!viewer?.approved) {
    if (block) return <BlockedNotice block={block} postalOpen={postalOpen} />;
    return (
      <>
        {price}
        {viewer ? (
          <AwaitingApproval rejected={viewer.rejected} path={`/competitions/${c.slug}`} />
        ) : (
          <SignInToEnter path={`/competitions/${c.slug}`} bundles={bundles} />
        )}
      </>
    );
  }
  const quote = viewer.quote;
  // A break, exclusion or closure: say so and until when, rather than offer a form SQL would refuse.
  // The competition's own reason (closed, sold out) wins, as for everyone, and keeps the panel mounted.
  if (quote.block && !block) {
    return <PlayBlockNotice block={quote.block}>Entries are paused while this lasts.</PlayBlockNotice>;
  }
  const blocked =
    block?.message ??
    (quote.cap_left === 0
      ? `You already have the maximum of ${c.max_tickets_per_user} tickets for this competition`
      : quote.skill_retry_at
        ? `You gave a wrong answer. You can try again at ${formatLondonTime(quote.skill_retry_at)}`
        : null);
  return (
    <>
      {blocked ? null : price}
      <EntryPanel
        competitionId={c.id}
        slug={c.slug}
        numbering={c.ticket_numbering}
        totalTickets={c.total_tickets}
        title={c.title}
        question={c.skill_question}
        options={c.skill_options}
        quote={quote}
        blocked={blocked}
      />
      {block ? <PostalStillOpen block={block} postalOpen={postalOpen} /> : null}
    </>
  );
}

function BlockedNotice({ block, postalOpen }: { block: EntryBlock; postalOpen: boolean }) {
  return (
    <>
      <p className="rounded-lg border border-border bg-muted p-4 font-medium">{block.message}</p>
      <PostalStillOpen block={block} postalOpen={postalOpen} />
    </>
  );
}

function PostalStillOpen({ block, postalOpen }: { block: EntryBlock; postalOpen: boolean }) {
  const salesOver = block.code === "competition_sold_out" || block.code === "competition_closed";
  return salesOver && postalOpen ? <p>Online sales have ended, but you can still enter free by post.</p> : null;
}

function SignInToEnter({ path, bundles }: { path: string; bundles: readonly TicketBundle[] }) {
  return (
    <>
      {bundles.length > 0 ? (
        <ul aria-label="Ticket bundles" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {bundles.map((bundle) => (
            <li key={bundle.tickets} className="flex flex-col rounded-lg border border-border bg-muted p-3 text-center">
              <span className="font-semibold">{plural(bundle.tickets, "ticket")}</span>
              <span className="text-lg font-bold tabular-nums">{formatGBP(bundle.cost)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p>
        Sign in to choose your tickets and answer the question. Accounts are free; our team approves each one before it
        can enter.
      </p>
      <div className="mt-auto flex flex-wrap gap-3">
        <Link href={`/login?next=${encodeURIComponent(path)}`} className={buttonClasses("primary", "lg")}>
          Sign in to enter
        </Link>
        <Link href={`/signup?next=${encodeURIComponent(path)}`} className={buttonClasses("outline", "lg")}>
          Create an account
        </Link>
      </div>
    </>
  );
}

/** `path`: this competition's page, where the approval leads back to. */
function AwaitingApproval({ rejected, path }: { rejected: boolean; path: string }) {
  return (
    <Alert variant="warning">
      <AlertTitle>
        {rejected
          ? "Your account was not approved, so you cannot enter competitions"
          : "Your account is awaiting approval"}
      </AlertTitle>
      <p className="mt-1">
        {rejected
          ? "You can still enter for free by post."
          : "Our team checks every new account before it can spend. You can enter as soon as you are approved, or for free by post now."}
      </p>
      <Link
        href={rejected ? PENDING_APPROVAL_PATH : pendingApprovalPath(path)}
        className="mt-2 inline-block font-semibold underline underline-offset-2"
      >
        {rejected ? "Why not" : "Why not yet"}
      </Link>
    </Alert>
  );
}
