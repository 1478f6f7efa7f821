import type { Metadata } from "next";
import { notFoundMetadata } from "@/components/errors/not-found-boundary";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { cache } from "react";

import { DrawVerifier } from "@/components/competitions/draw-verifier";
import { InstantWinsSection } from "@/components/competitions/instant-wins";
import { getDraw, type Draw } from "@/lib/data/competitions";
import { getInstantWins } from "@/lib/data/instant-wins";
import { DRAW_ALGORITHM_V2, ticketListText } from "@/lib/draws/verify";
import { formatDateTime, formatPounds, formatWinner, ordinal } from "@/lib/format";
import { canonicalOrigin } from "@/lib/site-url";
import { BackLink } from "@/components/ui/back-link";

type Props = { params: Promise<{ drawId: string }> };
/** One published input: name, value, and what it is. */
type Input = [string, React.ReactNode, string?];

// Static per draw, rendered on its first visit and regenerated like the other competition pages.
export const revalidate = 2;
export const generateStaticParams = () => [];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const load = cache(async (id: string) => (UUID.test(id) ? getDraw(id) : null));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const draw = await load((await params).drawId);
  if (!draw) return notFoundMetadata;
  return {
    title: `Verify the draw: ${draw.competition.title}`,
    description: `Every input of the ${draw.competition.title} draw, recomputed in your browser.`,
  };
}

export default async function VerifyDrawPage({ params }: Props) {
  const draw = await load((await params).drawId);
  if (!draw) notFound();
  const instantWins = await getInstantWins(draw.competition.slug);
  const external = draw.external_randomness;
  const v2 = draw.algorithm === DRAW_ALGORITHM_V2;
  const entries = `/competitions/${draw.competition.slug}/entries`;
  const ticketListUrl = `${entries}/ticket-list.csv`;
  const position: Input[] =
    draw.winning_position !== null
      ? [["Winning position", String(draw.winning_position), "row of the ticket list, from 1"]]
      : [];
  const inputs: Input[] = [
    ["Algorithm", draw.algorithm],
    ["Competition id", draw.competition.id, "16 raw bytes in the hash"],
    ["Seed commitment (published before sales)", draw.seed_commitment, "SHA-256 of the seed"],
    ["Revealed seed", draw.seed_hex, "32 bytes, secret until the draw"],
    [
      "Ticket list hash",
      draw.ticket_list_hash,
      v2 ? "SHA-256 of the ticket list CSV" : "SHA-256 of the ticket list below",
    ],
    [
      "External randomness",
      external
        ? `${String(external.source ?? "external")}${external.round ? ` round ${String(external.round)}` : ""}: ${draw.external_hex}`
        : "None",
      external ? "bytes appended after the ticket list hash" : "nothing is appended",
    ],
    ["Counter", String(draw.counter), "attempts rejected before this one"],
    ["N (tickets in the draw)", draw.ticket_count.toLocaleString("en-GB")],
    ...position,
    ["Winning number", `#${draw.winning_number}`],
    ["Winning ticket id", draw.winning_ticket_id],
  ];
  const several = draw.prizes.length > 1;
  const when =
    draw.trigger === "sold_out"
      ? "when the last ticket sold"
      : draw.trigger === "close_time"
        ? "at the close time"
        : "at the draw time";

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <BackLink href="/winners">All winners</BackLink>
      <header className="mt-6">
        <h1 className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
          Verify the draw: {draw.competition.title}
          {several ? `, ${ordinal(draw.prize_position)} prize` : null}
        </h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Ticket <span className="font-semibold text-foreground">#{draw.winning_number}</span> of{" "}
          {draw.ticket_count.toLocaleString("en-GB")} won
          {several ? (
            <>
              {" "}
              the {ordinal(draw.prize_position)} prize,{" "}
              <span className="font-semibold text-foreground">{draw.prize_description}</span>
            </>
          ) : null}{" "}
          (<span className="font-semibold text-foreground">{formatWinner(draw)}</span>), drawn{" "}
          {formatDateTime(draw.drawn_at)} {when}.{" "}
          <Link
            href={`/competitions/${draw.competition.slug}`}
            className="font-medium text-primary-text underline underline-offset-4"
          >
            The competition
          </Link>
        </p>
      </header>

      <div className="mt-10 grid gap-8 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
        <section aria-labelledby="inputs-title">
          <h2 id="inputs-title" className="text-xl font-bold">
            Every input
          </h2>
          <dl className="mt-4 flex flex-col divide-y divide-border rounded-2xl border border-border">
            {inputs.map(([name, value, note]) => (
              <div key={name} className="px-4 py-3">
                <dt className="text-sm text-muted-foreground">
                  {name}
                  {note ? <span className="text-xs"> ({note})</span> : null}
                </dt>
                <dd className="mt-0.5 font-mono text-sm break-all">{value}</dd>
              </div>
            ))}
          </dl>
          {v2 ? (
            <TicketListV2 entries={entries} ticketListUrl={ticketListUrl} ticketCount={draw.ticket_count} />
          ) : (
            <TicketListV1 entries={entries} tickets={draw.tickets ?? []} />
          )}
        </section>

        <div className="flex flex-col gap-6">
          {several ? <EveryPrize draw={draw} /> : null}
          <DrawVerifier draw={draw} ticketListUrl={v2 ? ticketListUrl : undefined} countAs={draw.id} />
          {instantWins ? <InstantWinsSection competitionId={draw.competition.id} data={instantWins} /> : null}
          <section aria-labelledby="how-title" className="text-sm">
            <h2 id="how-title" className="text-lg font-bold">
              How the winner is derived
            </h2>
            <ol className="mt-2 list-decimal space-y-1.5 pl-5">
              <li>
                Hash the seed, the competition id, the ticket list hash, any external randomness and the counter (4
                bytes) with SHA-256.
              </li>
              <li>Read the first 6 bytes as a number x below 2⁴⁸.</li>
              <li>
                If x falls in the last incomplete block of N (x ≥ 2⁴⁸ − 2⁴⁸ mod N) add one to the counter and hash
                again: this avoids modulo bias.
              </li>
              {v2 ? (
                <li>
                  Otherwise (x mod N) + 1 is the winning position: that row of the ticket list (header excluded) holds
                  the winning number and ticket id. Numbers can have gaps (unsold numbers; postal tickets come after the
                  online ones), so the row, not the number, is drawn.
                </li>
              ) : (
                <li>Otherwise the winning number is (x mod N) + 1.</li>
              )}
              {several ? (
                <li>
                  Several prizes come from the same stream: carry on counting, and each accepted row that no earlier
                  prize took goes to the next prize, 1st prize first. No ticket wins twice, and each prize records the
                  counter that picked its row.
                </li>
              ) : null}
            </ol>
            <p className="mt-3">
              Check the commitment yourself:{" "}
              <code className="rounded bg-muted px-1 font-mono text-xs break-all">
                echo -n {draw.seed_hex} | xxd -r -p | sha256sum
              </code>
            </p>
            {v2 ? (
              <p className="mt-3">
                And the ticket list hash:{" "}
                <code className="rounded bg-muted px-1 font-mono text-xs break-all">
                  curl -s {canonicalOrigin()}
                  {ticketListUrl} | sha256sum
                </code>
              </p>
            ) : null}
            <Link
              href="/docs/fair-draws"
              className="mt-3 inline-block font-medium text-primary-text underline underline-offset-4"
            >
              Fair draws and verification, in full
            </Link>
          </section>
        </div>
      </div>
    </div>
  );
}

/** Every prize of the same draw, in order, each linking to its own page; all are recomputed by the check below. */
function EveryPrize({ draw }: { draw: Draw }) {
  return (
    <section aria-labelledby="prizes-title" className="rounded-2xl border border-border p-4">
      <h2 id="prizes-title" className="text-lg font-bold">
        Every prize of this draw
      </h2>
      <ol className="mt-3 flex flex-col gap-2 text-sm">
        {draw.prizes.map((p) => (
          <li key={p.draw_id} className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-semibold">{ordinal(p.prize_position)} prize:</span>
            {p.draw_id === draw.id ? (
              <span aria-current="page">{p.prize_description}</span>
            ) : (
              <Link
                href={`/winners/${p.draw_id}`}
                className="font-medium text-primary-text underline underline-offset-4"
              >
                {p.prize_description}
              </Link>
            )}
            <span className="text-muted-foreground">
              ({formatPounds(p.prize_value)}): ticket #{p.winning_number}, {formatWinner(p)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** v2: the list is a download (up to about 45 MB), never part of this page. */
function TicketListV2({
  entries,
  ticketListUrl,
  ticketCount,
}: {
  entries: string;
  ticketListUrl: string;
  ticketCount: number;
}) {
  return (
    <section aria-labelledby="list-title" className="mt-6 rounded-2xl border border-border p-4">
      <h3 id="list-title" className="font-semibold">
        The ticket list ({ticketCount.toLocaleString("en-GB")} tickets)
      </h3>
      <p className="mt-2 text-sm text-muted-foreground">
        A CSV: the line &ldquo;ticket_number,ticket_id&rdquo;, then one &ldquo;number,ticket id&rdquo; line per ticket
        in number order, each ending in a newline. Its SHA-256 is the ticket list hash. Ticket ids are random, so the
        list does not say who entered; the entrants file says that, joined by ticket id.
      </p>
      <ul className="mt-3 flex flex-col gap-1.5 text-sm">
        <li>
          <a href={ticketListUrl} download className="font-medium text-primary-text underline underline-offset-4">
            Ticket list (CSV)
          </a>
        </li>
        <li>
          <a
            href={`${entries}/entrants.csv`}
            download
            className="font-medium text-primary-text underline underline-offset-4"
          >
            Entrants (CSV)
          </a>
        </li>
        <li>
          <Link href={entries} className="font-medium text-primary-text underline underline-offset-4">
            The entry list, searchable by ticket number
          </Link>
        </li>
      </ul>
    </section>
  );
}

/** v1: the list was small and is shown whole, in v1's own format. */
function TicketListV1({ entries, tickets }: { entries: string; tickets: string[] }) {
  return (
    <>
      <details className="mt-4 rounded-2xl border border-border p-4">
        <summary className="cursor-pointer font-semibold">
          The ticket list ({tickets.length.toLocaleString("en-GB")} tickets)
        </summary>
        <p className="mt-2 text-sm text-muted-foreground">
          One line per ticket, &ldquo;number:ticket id&rdquo;, each ending in a newline, in number order. Its SHA-256 is
          the ticket list hash. Ticket ids are random, so the list does not say who entered.
        </p>
        <pre
          className="mt-3 max-h-96 overflow-auto rounded-lg bg-muted p-3 text-xs"
          tabIndex={0}
          role="region"
          aria-label="Ticket list"
        >
          {ticketListText(tickets)}
        </pre>
      </details>
      <p className="mt-3 text-sm">
        Who held each ticket:{" "}
        <Link href={entries} className="font-medium text-primary-text underline underline-offset-4">
          the entry list
        </Link>{" "}
        and its{" "}
        <a
          href={`${entries}/entrants.csv`}
          download
          className="font-medium text-primary-text underline underline-offset-4"
        >
          entrants CSV
        </a>
        .
      </p>
    </>
  );
}
