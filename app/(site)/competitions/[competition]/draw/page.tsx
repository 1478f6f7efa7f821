import type { Metadata } from "next";
import { notFoundMetadata } from "@/components/errors/not-found-boundary";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Bell, CalendarPlus, History, ListOrdered, Radio } from "lucide-react";
import { ExternalRandomnessNote } from "@/components/competitions/how-this-draw-works";
import { LiveDraw } from "@/components/competitions/live-draw";
import { BackLink } from "@/components/ui/back-link";
import { formatMoment, requestTime } from "@/lib/competitions/status";
import { plural } from "@/lib/competitions/ticket-numbers";
import { getLiveDraw } from "@/lib/data/live-draw";
import type { LiveDrawState } from "@/lib/draws/live-draw";
import { endSentence, formatDateTime } from "@/lib/format";

type Props = { params: Promise<{ competition: string }> };

// Static per competition, the same for everyone, like the competition page: regenerated every few seconds and
// at once when a draw happens (lib/cache/public-pages.ts). Once drawn it is the permanent record of the draw.
export const revalidate = 2;
export const generateStaticParams = () => [];

const load = cache(async (slug: string) => getLiveDraw(decodeURIComponent(slug), requestTime()));

const linkClass = "font-medium text-primary-text underline underline-offset-4";

/** What the page is: a draw still to come is live; one made, or that never happened, is in the past. */
const drawHeading = (status: LiveDrawState["status"]) =>
  status === "waiting" ? "Live draw" : status === "drawn" ? "Draw result" : "Draw";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const live = await load((await params).competition);
  if (!live) return notFoundMetadata;
  const { competition: c, state } = live;
  const description = state.draw
    ? `Ticket #${state.draw.winning_number} of ${state.draw.ticket_count.toLocaleString("en-GB")} won ${c.title}: ${endSentence(state.draw.winner)} Checked in your browser.`
    : `Watch the ${c.title} draw live on ${formatMoment(c.draw_at)} and check it in your browser.`;
  const title = `${drawHeading(state.status)}: ${c.title}`;
  return {
    title,
    description,
    alternates: { canonical: `/competitions/${c.slug}/draw` },
    openGraph: { title, description },
  };
}

export default async function LiveDrawPage({ params }: Props) {
  const live = await load((await params).competition);
  if (!live) notFound();
  const { competition: c, state } = live;
  const waiting = state.status === "waiting";

  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <BackLink href={`/competitions/${c.slug}`}>{c.title}</BackLink>
      <header className="mt-6">
        <p className="flex items-center gap-2 text-sm font-semibold tracking-wide text-primary-text uppercase">
          {waiting ? <Radio aria-hidden className="size-4" /> : <History aria-hidden className="size-4" />}
          {drawHeading(state.status)}
        </p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">{c.title}</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          {state.draw
            ? `The draw was made on ${formatMoment(state.draw.drawn_at)}. The seed committed to before any sale was revealed then and the winning ticket derived from it and the list of every ticket; this page shows each step and checks it in your browser.`
            : waiting
              ? `The draw is ${formatMoment(c.draw_at)}. At that moment the seed committed to before any sale is revealed and the winning ticket is derived from it and the list of every ticket; this page shows each step and checks it in your browser.`
              : `The draw was due on ${formatMoment(c.draw_at)}.`}
        </p>
      </header>

      <div className="mt-8 rounded-2xl border border-border p-6">
        <LiveDraw slug={c.slug} initial={state} drawAtLabel={formatDateTime(c.draw_at)} />
      </div>

      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="commitment-title" className="rounded-2xl border border-border p-6">
          <h2 id="commitment-title" className="text-xl font-bold">
            The seed commitment
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">
            SHA-256 of the secret seed, published when the competition went live, before any ticket was sold. The seed
            itself is revealed at the draw.
          </p>
          <p className="mt-3 rounded-lg bg-muted p-3 font-mono text-sm break-all" data-testid="live-draw-commitment">
            {c.seed_commitment}
          </p>
          <ExternalRandomnessNote competition={c} />
        </section>

        <section aria-labelledby="entries-title" className="rounded-2xl border border-border p-6">
          <h2 id="entries-title" className="text-xl font-bold">
            {waiting ? "Entries so far" : "Entries"}
          </h2>
          <p className="mt-2 text-3xl font-extrabold tabular-nums" data-testid="live-draw-entries">
            {plural(state.tickets, "ticket")}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {waiting
              ? `Online and postal. Online entries close ${formatMoment(c.closes_at)}; letters count until ${formatMoment(c.postal_deadline)}.`
              : "Online and postal, every one of them in the draw."}
          </p>
          {c.entry_list_open ? (
            <Link
              href={`/competitions/${c.slug}/entries`}
              className={`mt-3 inline-flex items-center gap-2 ${linkClass}`}
            >
              <ListOrdered aria-hidden className="size-4" />
              The entry list
            </Link>
          ) : (
            <p className="mt-3 text-sm">The entry list, every ticket by number, is published when online sales end.</p>
          )}
        </section>
      </div>

      {waiting ? (
        <section aria-labelledby="notify-title" className="mt-6 rounded-2xl border border-border p-6">
          <h2 id="notify-title" className="flex items-center gap-2 text-xl font-bold">
            <Bell aria-hidden className="size-5 text-primary-text" />
            Notify me
          </h2>
          <ul className="mt-3 flex flex-col gap-2 text-sm">
            <li>
              <span className="font-semibold">Holding a ticket?</span> Nothing to do: every entrant gets the result in
              their{" "}
              <Link href="/account/notifications" className={linkClass}>
                notifications
              </Link>{" "}
              (and by push, if you turned it on), and the winner by e-mail too.
            </li>
            <li>
              <span className="font-semibold">Just watching?</span> Put the draw in your calendar; the reminder links
              back to this page, which keeps the result afterwards.
            </li>
          </ul>
          <a
            href={`/competitions/${c.slug}/draw/calendar.ics`}
            download
            className={`mt-4 inline-flex items-center gap-2 ${linkClass}`}
          >
            <CalendarPlus aria-hidden className="size-4" />
            Add the draw to my calendar
          </a>
        </section>
      ) : null}

      <p className="mt-8 flex flex-wrap gap-x-6 gap-y-2">
        <Link href={`/competitions/${c.slug}`} className={linkClass}>
          The competition
        </Link>
        <Link href="/docs/fair-draws" className={linkClass}>
          Fair draws and verification
        </Link>
      </p>
    </div>
  );
}
