import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { z } from "zod";
import { CompetitionTopUpForm } from "@/components/payments/competition-top-up-form";
import { Alert, AlertTitle } from "@/components/ui/alert";
import { BackLink } from "@/components/ui/back-link";
import { buttonClasses } from "@/components/ui/button";
import { requireUser } from "@/lib/auth/session";
import { plural } from "@/lib/competitions/ticket-numbers";
import { getEntryQuote, listCompetitions } from "@/lib/data/competitions";
import { getTopUpOptions, quoteTopUp } from "@/lib/data/payments";
import { formatGBP } from "@/lib/format";

export const metadata: Metadata = { title: "Top up and enter", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const paramsSchema = z.object({
  competition: z.string().uuid(),
  quantity: z.coerce.number().int().min(1).max(1_000),
  answer: z.string().trim().min(1).max(300).optional(),
});

/**
 * From the entry form when credit is short: tops up exactly what the chosen entry needs (the
 * shortfall from get_entry_quote, or the minimum top-up when that is more), and the entry is made
 * when the payment is confirmed. Every figure here comes from SQL.
 */
export default async function CompetitionPaymentPage({ searchParams }: Props) {
  const raw = await searchParams;
  await requireUser(`/payment/competition?${new URLSearchParams(raw as Record<string, string>)}`);
  const parsed = paramsSchema.safeParse(raw);
  const competition = parsed.success
    ? (await listCompetitions("live")).find((c) => c.id === parsed.data.competition)
    : undefined;
  if (!parsed.success || !competition) {
    return (
      <Shell>
        <Alert variant="warning">
          <AlertTitle>That entry is not available</AlertTitle>
          <p className="mt-1">The competition may have closed. Choose another from the list.</p>
        </Alert>
        <Link href="/competitions" className={buttonClasses("primary", "md")}>
          Browse competitions
        </Link>
      </Shell>
    );
  }
  const { quantity, answer } = parsed.data;
  const [quote, options] = await Promise.all([getEntryQuote(competition.id), getTopUpOptions()]);
  const cost = quote.costs[quantity - 1];
  const shortfall = quote.shortfalls[quantity - 1];
  const back = `/competitions/${competition.slug}`;

  if (cost === undefined || shortfall === undefined || shortfall <= 0) {
    return (
      <Shell back={back}>
        <Alert variant="info">
          <AlertTitle>
            {shortfall !== undefined && shortfall <= 0
              ? "You already have enough credit for this entry"
              : "Choose fewer tickets"}
          </AlertTitle>
        </Alert>
        <Link href={back} className={buttonClasses("primary", "md")}>
          Back to {competition.title}
        </Link>
      </Shell>
    );
  }

  const amount = shortfall < options.min ? options.min : shortfall;
  const topUp = await quoteTopUp(amount);
  const refusal = topUp.refusal ?? options.blocked;
  return (
    <Shell back={back}>
      <p>
        {competition.title}: {plural(quantity, "ticket")} for {formatGBP(cost)}.
      </p>
      <dl className="grid grid-cols-2 gap-2 rounded-lg bg-muted p-4 text-sm">
        <dt className="text-muted-foreground">Your credit</dt>
        <dd className="text-right tabular-nums">{formatGBP(quote.balance)}</dd>
        <dt className="text-muted-foreground">Credit needed</dt>
        <dd className="text-right tabular-nums">{formatGBP(shortfall)}</dd>
        <dt className="text-muted-foreground">You pay</dt>
        <dd className="text-right text-lg font-bold tabular-nums" data-testid="competition-top-up-amount">
          {formatGBP(amount)}
        </dd>
        {topUp.bonus ? (
          <>
            <dt className="text-muted-foreground">Bonus credit</dt>
            <dd className="text-right tabular-nums">{formatGBP(topUp.bonus)}</dd>
          </>
        ) : null}
      </dl>
      {amount !== shortfall ? (
        <p className="text-sm text-muted-foreground">
          The smallest top-up is {formatGBP(options.min)}; what is left stays in your balance.
        </p>
      ) : null}
      {refusal ? (
        <Alert variant="warning">{refusal.message}</Alert>
      ) : (
        <CompetitionTopUpForm
          competitionId={competition.id}
          quantity={quantity}
          answer={answer ?? null}
          question={competition.skill_question}
          options={competition.skill_options}
        />
      )}
      <p className="text-sm text-muted-foreground">
        Once the payment is confirmed we enter you with these tickets and show you your ticket numbers. If the entry
        cannot be made by then (the competition sold out, say), the credit stays in your balance.
      </p>
    </Shell>
  );
}

function Shell({ back, children }: { back?: string; children: React.ReactNode }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-12 sm:px-6">
      {back ? <BackLink href={back}>Back to the competition</BackLink> : null}
      <h1 className="text-3xl font-bold">Top up and enter</h1>
      {children}
    </section>
  );
}
