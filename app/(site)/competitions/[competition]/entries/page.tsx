import type { Metadata } from "next";
import { notFoundMetadata } from "@/components/errors/not-found-boundary";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Download } from "lucide-react";

import { EntryListTable } from "@/components/entry-list/entry-list-table";
import { Pagination } from "@/components/ui/pagination";
import { entryListHref, parseEntryListParams } from "@/lib/entry-list/params";
import { TicketSearch } from "@/components/entry-list/ticket-search";
import { Alert } from "@/components/ui/alert";
import { BackLink } from "@/components/ui/back-link";
import { EmptyState } from "@/components/ui/empty-state";
import { plural } from "@/lib/competitions/ticket-numbers";
import { getCompetitionDates, getEntryListPage, type CompetitionDates, type EntryList } from "@/lib/data/entry-list";
import { DbError } from "@/lib/data/errors";
import { DRAW_ALGORITHM_V2 } from "@/lib/draws/verify";
import { formatDateTime } from "@/lib/format";

type Props = {
  params: Promise<{ competition: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

type Loaded = { kind: "list"; list: EntryList } | { kind: "not_available"; dates: CompetitionDates } | null;

// Metadata and the page read the same page of the list once per request (React's cache keys on the
// arguments, so they are primitives).
const load = cache(
  async (slug: string, after: number | null, before: number | null, ticket: number | null): Promise<Loaded> => {
    try {
      return { kind: "list", list: await getEntryListPage({ slug, after, before, ticket }) };
    } catch (e) {
      if (!(e instanceof DbError)) throw e;
      if (e.code === "competition_not_found") return null;
      if (e.code === "entry_list_not_available") {
        const dates = await getCompetitionDates(slug);
        return dates ? { kind: "not_available", dates } : null;
      }
      throw e;
    }
  },
);

async function read({ params, searchParams }: Props) {
  const slug = decodeURIComponent((await params).competition);
  const query = parseEntryListParams(await searchParams);
  const loaded = await load(slug, query.after, query.before, query.ticketError ? null : query.ticket);
  return { slug, query, loaded };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { slug, loaded } = await read(props);
  if (!loaded) return notFoundMetadata;
  const title = loaded.kind === "list" ? loaded.list.competition.title : loaded.dates.title;
  return {
    title: `Entry list: ${title}`,
    description: `Every ticket in ${title}: its number, who entered (or "Postal entry") and the route, with the ticket list the draw hashes as CSV.`,
    alternates: { canonical: `/competitions/${slug}/entries` },
  };
}

export default async function EntryListPage(props: Props) {
  const { query, loaded } = await read(props);
  if (!loaded) notFound();
  if (loaded.kind === "not_available") return <NotAvailable dates={loaded.dates} />;

  const { list } = loaded;
  const c = list.competition;
  const base = entryListHref(c.slug);
  const searching = query.ticket !== null && !query.ticketError;
  const first = list.rows[0]?.number;
  const last = list.rows.at(-1)?.number;

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <BackLink href={`/competitions/${c.slug}`}>{c.title}</BackLink>
      <header className="mt-6">
        <h1 className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">Entry list: {c.title}</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          {plural(list.ticket_count, "ticket")}: {c.tickets_sold.toLocaleString("en-GB")} online and{" "}
          {c.postal_tickets.toLocaleString("en-GB")} by post. Each entrant is shown as on the winners page; names never
          go into the draw, only ticket numbers and ids.
        </p>
      </header>

      <Finality list={list} />

      <section aria-labelledby="downloads-title" className="mt-8">
        <h2 id="downloads-title" className="text-xl font-bold">
          Downloads
        </h2>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          <DownloadLink
            href={`${base}/ticket-list.csv`}
            title="Ticket list (CSV)"
            description="ticket_number,ticket_id: the exact bytes the draw hashes. Its SHA-256 is the draw's ticket-list hash."
          />
          <DownloadLink
            href={`${base}/entrants.csv`}
            title="Entrants (CSV)"
            description="ticket_number,ticket_id,entrant,town,route: join it to the ticket list by ticket id."
          />
        </ul>
      </section>

      <section aria-labelledby="tickets-title" className="mt-10">
        <h2 id="tickets-title" className="text-xl font-bold">
          Tickets
        </h2>
        <div className="mt-4">
          <TicketSearch action={base} value={query.ticketInput} error={query.ticketError} searching={searching} />
        </div>
        {query.cursorProblem ? (
          <Alert variant="warning" className="mt-2">
            {query.cursorProblem}
          </Alert>
        ) : null}

        {searching && list.rows.length === 0 ? (
          <Alert variant="warning" className="mt-2">
            There is no ticket #{query.ticket} in this competition. Its tickets are numbered from 1 to{" "}
            {c.total_tickets.toLocaleString("en-GB")} online
            {c.postal_tickets > 0 ? ", then after that for postal entries" : ""}, and unsold numbers are not in the
            list.
          </Alert>
        ) : list.rows.length === 0 ? (
          <EmptyState className="mt-4" title="No tickets" description="Nobody entered this competition." />
        ) : (
          <>
            <p className="mt-2 text-sm text-muted-foreground" role={searching ? "status" : undefined}>
              {searching
                ? `Ticket #${first} found.`
                : `Tickets #${first} to #${last}, ${plural(list.rows.length, "ticket")} of ${list.ticket_count.toLocaleString("en-GB")}.`}
            </p>
            <div className="mt-3">
              <EntryListTable
                rows={list.rows}
                caption={searching ? `Ticket #${first}` : `Tickets #${first} to #${last}`}
              />
            </div>
            {searching ? null : (
              <div className="mt-4">
                <Pagination
                  label="Entry list pages"
                  previousHref={
                    list.has_before && first !== undefined ? entryListHref(c.slug, { before: first }) : null
                  }
                  nextHref={list.has_after && last !== undefined ? entryListHref(c.slug, { after: last }) : null}
                />
              </div>
            )}
          </>
        )}
      </section>
    </div>
  );
}

/** Plain links (not next/link): nothing should prefetch a file that may be 45 MB. */
function DownloadLink({ href, title, description }: { href: string; title: string; description: string }) {
  return (
    <li className="rounded-2xl border border-border p-4">
      <a
        href={href}
        download
        className="inline-flex items-center gap-2 font-semibold text-primary-text underline underline-offset-4"
      >
        <Download aria-hidden className="size-4" />
        {title}
      </a>
      <p className="mt-1 text-sm break-words text-muted-foreground">{description}</p>
    </li>
  );
}

function Finality({ list }: { list: EntryList }) {
  const c = list.competition;
  if (list.draw) {
    const v2 = list.draw.algorithm === DRAW_ALGORITHM_V2;
    return (
      <Alert variant="success" announce={false} className="mt-6">
        <p className="font-semibold">This list is final: the draw has been made.</p>
        {v2 ? (
          <p className="mt-1">
            The draw&apos;s ticket-list hash, the SHA-256 of the ticket list CSV below:{" "}
            <code className="font-mono break-all">{list.draw.ticket_list_hash}</code>
          </p>
        ) : (
          <p className="mt-1">
            This draw used labcash-draw-v1, which hashed the list in its own format (number:ticket id), shown on the
            verification page with its hash.
          </p>
        )}
        <p className="mt-1">
          <Link href={`/winners/${list.draw.id}`} className="font-medium underline underline-offset-4">
            Verify the draw in your browser
          </Link>
        </p>
      </Alert>
    );
  }
  if (c.status === "closed") {
    return (
      <Alert variant="info" announce={false} className="mt-6">
        No tickets were entered by the draw time, so there was no draw.
      </Alert>
    );
  }
  return (
    <Alert variant="info" announce={false} className="mt-6">
      <p className="font-semibold">Online sales have ended; the list is final at the draw.</p>
      <p className="mt-1">
        Postal entries received by {formatDateTime(c.postal_deadline)} may still be added, numbered after the online
        tickets. The draw is on {formatDateTime(c.draw_at)}, over every ticket in this list.
      </p>
    </Alert>
  );
}

function NotAvailable({ dates }: { dates: CompetitionDates }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <BackLink href={`/competitions/${dates.slug}`}>{dates.title}</BackLink>
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance">Entry list: {dates.title}</h1>
      <Alert variant="info" announce={false} className="mt-6">
        {dates.status === "cancelled" ? (
          <p>This competition was cancelled and every entry refunded, so it has no entry list.</p>
        ) : (
          <>
            <p className="font-semibold">The entry list is not published yet.</p>
            <p className="mt-1">
              It opens when online sales end: at {formatDateTime(dates.closes_at)}, or earlier if every ticket sells.
              Postal entries can still arrive until {formatDateTime(dates.postal_deadline)}, and the list is final at
              the draw on {formatDateTime(dates.draw_at)}.
            </p>
          </>
        )}
      </Alert>
    </div>
  );
}
