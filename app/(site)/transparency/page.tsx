import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { FigureList, type Figure } from "@/components/transparency/figure-list";
import { ReportDraws } from "@/components/transparency/report-draws";
import type { CharityFigures } from "@/lib/data/charities";
import { getTransparencyReport, type PeriodFigures } from "@/lib/data/transparency";
import { plural } from "@/lib/competitions/ticket-numbers";
import { formatCount, formatDateTime, formatGBP, formatMonth, formatOdds } from "@/lib/format";

export const metadata: Metadata = {
  title: "Transparency",
  description:
    "Our own figures, from our records: draws, prizes and cash alternatives, winners by town, free postal entries, odds, instant wins, complaints, the draws visitors checked in their browsers and what charities received.",
  alternates: { canonical: "/transparency" },
};

// Static, regenerated like the other public pages; the figures themselves are recomputed at most once a minute,
// and at once after a draw (lib/data/transparency.ts).
export const revalidate = 2;

/**
 * A period's figures. Those about draws link to the draws behind them (`draws`: this month's table on the page, or
 * every winner); complaints link to how to complain, since complaints themselves are private.
 */
function figuresOf(f: PeriodFigures, draws: string, charity: CharityFigures | undefined): Figure[] {
  const voided = f.postal_received - f.postal_entered;
  return [
    {
      label: "Competitions drawn",
      value: formatCount(f.competitions_drawn),
      detail: f.competitions_drawn > 0 ? `Prizes worth ${formatGBP(f.prize_value)} in all` : null,
      href: draws,
    },
    {
      label: "Prizes delivered",
      value: formatCount(f.prizes_delivered),
      detail:
        f.competitions_drawn === 0
          ? null
          : (f.prizes_chosen === null || f.cash_chosen === null || f.cash_paid === null
              ? "How winners chose between the prize and its cash alternative shows once five have chosen"
              : `${formatCount(f.prizes_chosen)} chose the prize, ${formatCount(f.cash_chosen)} the cash (${formatGBP(f.cash_paid)} paid)`) +
            `; ${plural(f.awaiting_claim, "prize")} awaiting a claim`,
      href: draws,
    },
    {
      label: "Median odds per ticket",
      value: f.median_tickets === null ? "No draws" : formatOdds(f.median_tickets),
      detail: f.median_tickets === null ? null : "Half the draws had fewer tickets than this, half more",
      href: draws,
    },
    {
      label: "Instant wins",
      value: `${formatCount(f.instant_wins_won)} won of ${formatCount(f.instant_wins_published)} published`,
      detail: "In the competitions drawn; a winning number nobody bought is not won",
      // A month's table shows each draw's instant wins; the list of every winner does not.
      href: draws.startsWith("#") ? draws : null,
    },
    {
      label: "Entries online",
      value: formatCount(f.online_entries),
      detail: `${plural(f.online_tickets, "ticket")} bought with credit`,
      href: null,
    },
    {
      label: "Free postal entries",
      value: `${formatCount(f.postal_entered)} entered`,
      detail:
        `${plural(f.postal_tickets, "ticket")}, in the same draws at the same odds` +
        (voided > 0 ? `; ${formatCount(voided)} voided` : ""),
      href: null,
    },
    {
      label: "Complaints",
      value: `${formatCount(f.complaints_received)} received`,
      detail: `${formatCount(f.complaints_acknowledged_in_time)} acknowledged within 2 working days, ${formatCount(f.complaints_answered_in_time)} answered within 28 days, ${formatCount(f.complaints_open)} open, ${formatCount(f.complaints_overdue)} overdue`,
      href: "/complaints",
    },
    {
      label: "Draws checked in visitors' browsers",
      value: formatCount(f.draw_checks),
      detail: `Checks that browsers reported finding a draw correct, once per visitor a day, on ${plural(f.draws_checked, "different draw")}`,
      href: null,
    },
    {
      label: "Paid to charities",
      value: formatGBP(charity?.paid ?? 0),
      detail: charity
        ? `${formatGBP(charity.owed)} owed by the competitions drawn, to ${plural(charity.charities, "charity", "charities")}`
        : "No competition with a charity partner was drawn and no payment made",
      href: "/charities",
    },
  ];
}

export default async function TransparencyPage() {
  const report = await getTransparencyReport();
  const { all_time: allTime, months, towns, draws, charities } = report;
  const charityIn = (period: string) => charities.find((c) => c.period === period);
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight">Transparency</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Our own figures, computed from our records, never typed in: every draw, prize and complaint counts. The
          figures about draws link to the draws behind them, and every draw can be checked in your browser.
        </p>
        <p className="mt-3 text-sm text-muted-foreground">
          Figures as of <time dateTime={report.generated_at}>{formatDateTime(report.generated_at)}</time>, updated
          within a minute and at once after each draw. Months are UK time.
        </p>
      </header>

      <section aria-labelledby="all-time" className="mt-10">
        <h2 id="all-time" className="text-2xl font-bold">
          Since we started
        </h2>
        <FigureList figures={figuresOf(allTime, "/winners", charityIn("all"))} />
      </section>

      <section aria-labelledby="towns" className="mt-12">
        <h2 id="towns" className="text-2xl font-bold">
          Winners by town or county
        </h2>
        <p className="mt-2 max-w-3xl text-muted-foreground">
          As each winner chose to be published. {plural(report.winners_without_town, "winner")} asked for initials only
          or gave no town, and {report.winners_without_town === 1 ? "is" : "are"} not placed here.
        </p>
        {towns.length > 0 ? (
          <ul className="mt-4 flex flex-wrap gap-2">
            {towns.map((t) => (
              <li key={t.town} className="rounded-full border border-border bg-card px-3 py-1 text-sm">
                {t.town}: <span className="font-semibold">{formatCount(t.winners)}</span>
              </li>
            ))}
          </ul>
        ) : null}
        <Link href="/winners" className="mt-4 inline-block font-medium text-primary-text underline underline-offset-4">
          Every winner
        </Link>
      </section>

      <section aria-labelledby="by-month" className="mt-12">
        <h2 id="by-month" className="text-2xl font-bold">
          Month by month
        </h2>
        {months.length === 0 ? (
          <p className="mt-2 text-muted-foreground">Nothing has happened yet: no entries, draws or complaints.</p>
        ) : (
          months.map((m) => {
            const listId = `draws-${m.period}`;
            const monthDraws = draws.filter((d) => d.month === m.period);
            return (
              <section key={m.period} aria-labelledby={`month-${m.period}`} className="mt-8">
                <h3 id={`month-${m.period}`} className="text-xl font-semibold">
                  {formatMonth(m.period)}
                </h3>
                <FigureList figures={figuresOf(m, `#${listId}`, charityIn(m.period))} />
                <ReportDraws id={listId} month={formatMonth(m.period)} draws={monthDraws} />
              </section>
            );
          })
        )}
      </section>

      <p className="mt-12 max-w-3xl text-sm text-muted-foreground">
        How we run draws and handle complaints is set out in our{" "}
        <Link href="/docs/legal/code-of-practice" className="underline underline-offset-4">
          code of practice
        </Link>
        .
      </p>
    </div>
  );
}
