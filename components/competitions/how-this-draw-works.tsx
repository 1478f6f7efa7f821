import { Link } from "@/components/ui/link";
import { ShieldCheck } from "lucide-react";
import { formatMoment, oddsText } from "@/lib/competitions/status";
import { plural } from "@/lib/competitions/ticket-numbers";
import type { Competition } from "@/lib/data/competitions";

const linkClass = "font-medium text-primary-text underline underline-offset-4";

/**
 * "How this draw works" on every competition page (code of practice 2.1–2.5; CAP 8.17, 8.24): chance,
 * the free route, the odds, the dates, and how to check the draw (the seed commitment, the
 * verification page, the entry list).
 */
export function HowThisDrawWorks({ competition: c, prizes = 1 }: { competition: Competition; prizes?: number }) {
  const inTheDraw = (c.tickets_sold + c.postal_tickets).toLocaleString("en-GB");
  return (
    <section aria-labelledby="how-title" className="rounded-2xl border border-border bg-card p-6 shadow-sm">
      <h2 id="how-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
        <ShieldCheck aria-hidden className="size-6 text-primary-text" />
        How this draw works
      </h2>
      <dl className="mt-4 flex flex-col gap-4">
        <Point term="Chance decides">
          {prizes > 1 ? (
            <>
              The winners are chosen by chance: at the draw time a verifiable computer process picks {prizes} tickets,
              one for each prize in order, from every ticket in the competition, online and postal. One ticket wins at
              most one prize. Nobody chooses the winners, and every ticket has exactly the same chance.
            </>
          ) : (
            <>
              The winner is chosen by chance: at the draw time a verifiable computer process picks one ticket from every
              ticket in the competition, online and postal. Nobody chooses the winner, and every ticket has exactly the
              same chance.
            </>
          )}
        </Point>
        <Point term="Free entry">
          You never have to pay: each letter gets {plural(c.postal_tickets_per_entry, "ticket")} if it arrives by the
          postal deadline, even after a sell-out. See &ldquo;Enter free by post&rdquo; above.
        </Point>
        <Point term="The odds">
          {oddsText(c)}.
          {prizes > 1
            ? ` With ${prizes} prizes, a ticket's chance of winning one of them is about ${prizes} in ${c.total_tickets.toLocaleString("en-GB")}.`
            : null}{" "}
          Your chance is the tickets you hold out of every ticket in the draw: {c.draw ? "" : "so far "}
          {plural(c.tickets_sold, "online ticket")} and {plural(c.postal_tickets, "postal ticket")}, {inTheDraw} in all.
        </Point>
        <Point term="The dates">
          {c.draw ? (
            <>
              Online entries closed {formatMoment(c.closes_at)} (sooner if every ticket sold), letters had to arrive by{" "}
              {formatMoment(c.postal_deadline)} and the draw was made {formatMoment(c.draw.drawn_at)}. The dates were
              fixed when the competition was published: never extended, and a sell-out did not bring the draw forward.
            </>
          ) : (
            <>
              Online entries close {formatMoment(c.closes_at)} (sooner if every ticket sells), letters must arrive by{" "}
              {formatMoment(c.postal_deadline)} and the draw is {formatMoment(c.draw_at)}. They were fixed when the
              competition was published: never extended, and a sell-out does not bring the draw forward. If no tickets
              are in by the draw time, there is no winner.
            </>
          )}
        </Point>
        <Point term="Check it yourself">
          The secret seed that decides the winner was made when the competition went live, and its SHA-256 fingerprint
          published before any ticket was sold. After the draw the seed is revealed, and the verification page
          recomputes the winner in your browser from the seed and the list of every ticket, which is public once online
          sales end (the entry list, linked at the top of this page).
        </Point>
      </dl>
      <p className="mt-4 text-sm font-medium">SHA-256 commitment</p>
      <p className="mt-1 rounded-lg bg-muted p-3 font-mono text-sm break-all" data-testid="seed-commitment">
        {c.seed_commitment ?? "Published when the competition goes live"}
      </p>
      <ExternalRandomnessNote competition={c} />
      <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
        {c.draw ? (
          <Link href={`/winners/${c.draw.id}`} className={linkClass}>
            Verify this draw
          </Link>
        ) : null}
        <Link href="/docs/competitions" className={linkClass}>
          Competitions and free entry
        </Link>
        <Link href="/docs/fair-draws" className={linkClass}>
          Fair draws and verification
        </Link>
      </p>
    </section>
  );
}

/** The public randomness fixed with the commitment, if the competition has any (docs/decisions/025). */
export function ExternalRandomnessNote({ competition: c }: { competition: Pick<Competition, "external_randomness"> }) {
  if (!c.external_randomness) return null;
  return (
    <p className="mt-3 text-sm text-muted-foreground">
      Public randomness fixed at publication: {String(c.external_randomness.source ?? "external")}
      {c.external_randomness.round ? `, round ${String(c.external_randomness.round)}` : ""}.
    </p>
  );
}

function Point({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="font-semibold">{term}</dt>
      <dd className="mt-1 text-muted-foreground">{children}</dd>
    </div>
  );
}
