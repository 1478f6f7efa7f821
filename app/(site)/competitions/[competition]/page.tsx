import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Award, Clock, ShieldCheck, Ticket, Trophy } from "lucide-react";
import { Countdown } from "@/components/competitions/countdown";
import { EntryPanel } from "@/components/competitions/entry-panel";
import { Gallery } from "@/components/competitions/gallery";
import { PostalEntry } from "@/components/competitions/postal-entry";
import { entryBlock, phaseOf, requestTime, type Phase } from "@/components/competitions/status";
import { StatusBadge } from "@/components/competitions/status-badge";
import { formatTicketNumbers, plural } from "@/components/competitions/ticket-numbers";
import { TicketProgress } from "@/components/competitions/ticket-progress";
import { buttonClasses } from "@/components/ui/button";
import { getAccount, type Account } from "@/lib/auth/session";
import { getCompetition, getEntryQuote, type CompetitionPage } from "@/lib/data/competitions";
import { formatDateTime, formatGBP, formatWinner } from "@/lib/format";
import { BackLink } from "@/components/ui/back-link";

type Props = { params: Promise<{ competition: string }> };

// Metadata and the page read the same competition once per request.
const load = cache(async (slug: string) => getCompetition(decodeURIComponent(slug)));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const c = await load((await params).competition);
  if (!c) return {};
  return {
    title: c.title,
    description: c.summary || `Win ${c.title}: tickets ${formatGBP(c.ticket_price)}, ${c.total_tickets.toLocaleString("en-GB")} tickets, free postal entry.`,
    alternates: { canonical: `/competitions/${c.slug}` },
    openGraph: { title: c.title, description: c.summary, images: c.images.slice(0, 1) },
  };
}

export default async function CompetitionDetailPage({ params }: Props) {
  const c = await load((await params).competition);
  if (!c) notFound();
  const account = await getAccount();
  const now = requestTime();
  const phase = phaseOf(c, now);
  const block = entryBlock(c, now);
  const path = `/competitions/${c.slug}`;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <BackLink href="/competitions">All competitions</BackLink>

      <div className="mt-6 grid gap-10 lg:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)]">
        {c.images.length > 0 ? (
          <Gallery images={c.images} title={c.title} />
        ) : (
          <div className="flex aspect-[4/3] items-center justify-center rounded-2xl border border-border bg-muted">
            <Trophy aria-hidden className="size-16 text-muted-foreground" />
          </div>
        )}

        <div className="flex flex-col gap-6">
          <div>
            <StatusBadge phase={phase} />
            <h1 className="mt-3 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{c.title}</h1>
            {c.summary ? <p className="mt-3 text-lg text-muted-foreground">{c.summary}</p> : null}
          </div>

          <dl className="grid grid-cols-2 gap-4">
            <div className="rounded-xl border border-border p-4">
              <dt className="text-sm text-muted-foreground">Prize value</dt>
              <dd className="mt-1 text-2xl font-bold">{formatGBP(c.prize_value)}</dd>
            </div>
            <div className="rounded-xl border border-border p-4">
              <dt className="text-sm text-muted-foreground">Ticket price</dt>
              <dd className="mt-1 text-2xl font-bold">{formatGBP(c.ticket_price)}</dd>
            </div>
            <div className="rounded-xl border border-border p-4">
              <dt className="text-sm text-muted-foreground">Odds</dt>
              <dd className="mt-1 font-semibold">1 in {c.total_tickets.toLocaleString("en-GB")} per ticket at sell-out</dd>
            </div>
            <div className="rounded-xl border border-border p-4">
              <dt className="text-sm text-muted-foreground">Per person</dt>
              <dd className="mt-1 font-semibold">Up to {plural(c.max_tickets_per_user, "ticket")}</dd>
            </div>
          </dl>

          <TicketProgress sold={c.tickets_sold} total={c.total_tickets} />

          <div className="flex items-start gap-3 rounded-xl border border-border p-4">
            <Clock aria-hidden className="mt-0.5 size-5 shrink-0 text-primary-text" />
            <Timing competition={c} phase={phase} />
          </div>

          {c.draw ? <DrawResult competition={c} /> : null}
          {c.status === "cancelled" ? (
            <div className="rounded-xl border border-red-300 bg-red-50 p-4 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50">
              <p className="font-semibold">This competition has been cancelled</p>
              {c.cancel_reason ? <p className="mt-1">{c.cancel_reason}</p> : null}
              <p className="mt-1 text-sm">Every paid entry was refunded to credit; postal entries were withdrawn.</p>
            </div>
          ) : null}
        </div>
      </div>

      <section aria-labelledby="enter-title" className="mt-14">
        <h2 id="enter-title" className="text-2xl font-bold tracking-tight">
          Two ways to enter
        </h2>
        <p className="mt-1 text-muted-foreground">Paid or free, every ticket has the same chance of winning.</p>
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <article aria-labelledby="enter-online-title" className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm">
            <h3 id="enter-online-title" className="flex items-center gap-2 text-xl font-bold">
              <Ticket aria-hidden className="size-5 text-primary-text" />
              Enter online
            </h3>
            <OnlineEntry competition={c} account={account} block={block} path={path} />
          </article>
          <article aria-labelledby="enter-post-title" className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-6 shadow-sm">
            <h3 id="enter-post-title" className="flex items-center gap-2 text-xl font-bold">
              <Award aria-hidden className="size-5 text-primary-text" />
              Enter free by post
            </h3>
            {block && !block.startsWith("Entries open") ? (
              <p className="rounded-lg border border-border bg-muted p-4 font-medium">Postal entries for this competition are closed too.</p>
            ) : (
              <PostalEntry title={c.title} question={c.skill_question} closesAt={c.closes_at} />
            )}
          </article>
        </div>
      </section>

      {c.my_tickets ? (
        <section aria-labelledby="my-tickets-title" className="mt-14">
          <h2 id="my-tickets-title" className="text-2xl font-bold tracking-tight">
            Your tickets
          </h2>
          {c.my_tickets.length > 0 ? (
            <>
              <p className="mt-1 text-muted-foreground">
                You hold {plural(c.my_tickets.length, "ticket")} of {c.tickets_sold.toLocaleString("en-GB")} sold.{" "}
                <Link href="/account/entries" className="font-medium text-primary-text underline underline-offset-4">
                  All my entries
                </Link>
              </p>
              {c.my_tickets.length > 60 ? (
                <p className="mt-4 rounded-lg bg-muted p-3 font-mono text-sm">{formatTicketNumbers(c.my_tickets)}</p>
              ) : (
              <ul aria-label="Your ticket numbers" className="mt-4 flex flex-wrap gap-2">
                {c.my_tickets.map((n) => (
                  <li
                    key={n}
                    className={
                      c.draw?.winning_number === n
                        ? "rounded-md border-2 border-primary bg-primary-soft px-2.5 py-1 font-mono text-sm font-bold text-primary-text"
                        : "rounded-md border border-border bg-muted px-2.5 py-1 font-mono text-sm"
                    }
                  >
                    #{n}
                  </li>
                ))}
              </ul>
              )}
            </>
          ) : (
            <p className="mt-1 text-muted-foreground">You have no tickets in this competition yet.</p>
          )}
        </section>
      ) : null}

      <div className="mt-14 grid gap-10 lg:grid-cols-2">
        <section aria-labelledby="prize-title">
          <h2 id="prize-title" className="text-2xl font-bold tracking-tight">
            The prize
          </h2>
          <p className="mt-3 font-medium whitespace-pre-line">{c.prize_description}</p>
          <p className="mt-2 text-muted-foreground">Retail value {formatGBP(c.prize_value)}.</p>
          {c.description
            .split(/\n{2,}/)
            .filter(Boolean)
            .map((para, i) => (
              <p key={i} className="mt-4 whitespace-pre-line">
                {para}
              </p>
            ))}
        </section>

        <section aria-labelledby="fair-title">
          <h2 id="fair-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
            <ShieldCheck aria-hidden className="size-6 text-primary-text" />
            A draw you can check
          </h2>
          <p className="mt-3">
            The secret seed that decides the winner was made when this competition went live. Its SHA-256 fingerprint was published
            then, before any ticket was sold; the seed itself is revealed after the draw, so anyone can check it matches.
          </p>
          <p className="mt-4 text-sm font-medium">SHA-256 commitment</p>
          <p className="mt-1 rounded-lg bg-muted p-3 font-mono text-sm break-all" data-testid="seed-commitment">
            {c.seed_commitment ?? "Published when the competition goes live"}
          </p>
          {c.external_randomness ? (
            <p className="mt-3 text-sm text-muted-foreground">
              Public randomness fixed at publication: {String(c.external_randomness.source ?? "external")}
              {c.external_randomness.round ? `, round ${String(c.external_randomness.round)}` : ""}.
            </p>
          ) : null}
          <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
            {c.draw ? (
              <Link href={`/winners/${c.draw.id}`} className="font-semibold text-primary-text underline underline-offset-4">
                Verify this draw
              </Link>
            ) : null}
            <Link href="/docs/fair-draws" className="font-medium text-primary-text underline underline-offset-4">
              How fair draws work
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}

function Timing({ competition: c, phase }: { competition: CompetitionPage; phase: Phase }) {
  switch (phase) {
    case "live":
      return (
        <div>
          <Countdown to={c.closes_at} label="Closes in" endedLabel="Closed" fallback={formatDateTime(c.closes_at)} className="text-lg" />
          <p className="text-sm text-muted-foreground">
            Closes {formatDateTime(c.closes_at)}, or as soon as the last ticket sells.
          </p>
        </div>
      );
    case "upcoming":
      return (
        <div>
          <Countdown to={c.opens_at} label="Opens in" endedLabel="Open now: reload to enter" fallback={formatDateTime(c.opens_at)} className="text-lg" />
          <p className="text-sm text-muted-foreground">
            Entries open {formatDateTime(c.opens_at)} and close {formatDateTime(c.closes_at)}.
          </p>
        </div>
      );
    case "awaiting_draw":
      return <p>Entries are closed. The draw runs automatically within a minute or two.</p>;
    case "drawn":
      return <p>Drawn {c.draw ? formatDateTime(c.draw.drawn_at) : ""}.</p>;
    case "closed":
      return <p>Closed {formatDateTime(c.closed_at ?? c.closes_at)} with no tickets sold, so there is no winner.</p>;
    case "cancelled":
      return <p>Cancelled {c.cancelled_at ? formatDateTime(c.cancelled_at) : ""}.</p>;
    case "draft":
      return <p>A draft: only admins can see it until it is published.</p>;
  }
}

function DrawResult({ competition: c }: { competition: CompetitionPage }) {
  const draw = c.draw!;
  const mine = c.my_tickets?.includes(draw.winning_number) ?? false;
  return (
    <section aria-labelledby="winner-title" className="rounded-xl border-2 border-primary bg-primary-soft p-5">
      <h2 id="winner-title" className="flex items-center gap-2 text-lg font-bold">
        <Trophy aria-hidden className="size-5 text-primary-text" />
        {mine ? "You won!" : "The winner"}
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3">
        <div>
          <dt className="text-sm text-muted-foreground">Winner</dt>
          <dd className="text-lg font-bold" data-testid="winner-name">
            {formatWinner(draw)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">Winning ticket</dt>
          <dd className="text-lg font-bold" data-testid="winning-ticket">
            #{draw.winning_number} <span className="text-sm font-normal text-muted-foreground">of {draw.ticket_count.toLocaleString("en-GB")}</span>
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-sm text-muted-foreground">Drawn {formatDateTime(draw.drawn_at)}.</p>
      <Link href={`/winners/${draw.id}`} className={buttonClasses("primary", "md", "mt-4")}>
        <ShieldCheck aria-hidden />
        Verify this draw
      </Link>
    </section>
  );
}

async function OnlineEntry({ competition: c, account, block, path }: { competition: CompetitionPage; account: Account | null; block: string | null; path: string }) {
  const price = (
    <p>
      <span className="text-2xl font-bold">{formatGBP(c.ticket_price)}</span> <span className="text-muted-foreground">per ticket, paid from your LabCash credit.</span>
    </p>
  );
  if (!account) {
    if (block) return <p className="rounded-lg border border-border bg-muted p-4 font-medium">{block}</p>;
    return (
      <>
        {price}
        <p>Sign in to choose your tickets and answer the question. Accounts are free; our team approves each one before it can enter.</p>
        <div className="mt-auto flex flex-wrap gap-3">
          <Link href={`/login?next=${encodeURIComponent(path)}`} className={buttonClasses("primary", "lg")}>
            Sign in to enter
          </Link>
          <Link href="/signup" className={buttonClasses("outline", "lg")}>
            Create an account
          </Link>
        </div>
      </>
    );
  }
  if (!account.approved) {
    if (block) return <p className="rounded-lg border border-border bg-muted p-4 font-medium">{block}</p>;
    const rejected = Boolean(account.rejected_at);
    return (
      <>
        {price}
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          <p className="font-semibold">
            {rejected ? "Your account was not approved, so you cannot enter competitions" : "Your account is awaiting approval"}
          </p>
          <p className="mt-1 text-sm">
            {rejected
              ? "You can still enter for free by post."
              : "Our team checks every new account before it can spend. You can enter as soon as you are approved, or for free by post now."}
          </p>
          <Link href="/pending-approval" className="mt-2 inline-block text-sm font-semibold underline underline-offset-2">
            {rejected ? "Why not" : "Why not yet"}
          </Link>
        </div>
      </>
    );
  }
  const quote = await getEntryQuote(c.id);
  const blocked =
    block ?? (quote.cap_left === 0 ? `You already have the maximum of ${c.max_tickets_per_user} tickets for this competition` : null);
  return (
    <>
      {blocked ? null : price}
      <EntryPanel competitionId={c.id} title={c.title} question={c.skill_question} options={c.skill_options} quote={quote} blocked={blocked} />
    </>
  );
}
