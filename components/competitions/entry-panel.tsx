"use client";

import dynamic from "next/dynamic";
import { Link } from "@/components/ui/link";
import { useEffect, useId, useRef, useState } from "react";
import { useFormAction } from "@/lib/hooks/use-form-action";
import { Gift, Minus, PartyPopper, Plus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ChoiceButton } from "@/components/ui/choice-button";
import { enterCompetitionAction } from "@/lib/actions/competitions";
import type { ActionResult } from "@/lib/actions/result";
import type { Competition, EntryQuote, EntryResult } from "@/lib/data/competitions";
import { formatGBP } from "@/lib/format";
import { Alert, AlertTitle } from "@/components/ui/alert";
import type { DbErrorCode } from "@/lib/data/errors";
import { formatTicketNumbers, plural } from "@/lib/competitions/ticket-numbers";
import { ShortfallLink } from "@/components/payments/shortfall-link";
import { SecondStepLink } from "@/components/forms/second-step-link";
import { celebrate } from "@/lib/ui/celebrate";
import { pendingApprovalPath } from "@/lib/auth/paths";

const QUICK_PICKS = [1, 5, 10, 25];
// The number grid is loaded only where it is used: pick competitions, for a signed-in, approved player.
const NumberPicker = dynamic(() => import("./number-picker").then((m) => m.NumberPicker), {
  loading: () => <p className="text-sm text-muted-foreground">Loading the numbers…</p>,
});
// A link inside the refusal box: the box's own colour, underlined on hover.
const alertLinkClass = "inline-flex pt-1 text-sm font-medium underline-offset-4 hover:underline";

export type EntryPanelProps = {
  competitionId: string;
  slug: string;
  numbering: Competition["ticket_numbering"];
  totalTickets: number;
  title: string;
  question: string | null;
  options: string[] | null;
  quote: EntryQuote;
  /** Why this user cannot enter now (closed, sold out, at their cap…), or null. */
  blocked: string | null;
};

/**
 * The paid entry form: quantity with quick picks, the skill question, the price and the credit
 * missing (both worked out in SQL: get_entry_quote), and the result. It stays mounted when the
 * page refreshes after a purchase, so a sell-out still shows the buyer their ticket numbers.
 */
export function EntryPanel({
  competitionId,
  slug,
  numbering,
  totalTickets,
  title,
  question,
  options,
  quote,
  blocked,
}: EntryPanelProps) {
  const ids = useId();
  const [raw, setRaw] = useState("1");
  const pick = numbering === "pick";
  // Pick competitions: the numbers SQL holds in the player's basket, and a key that reloads the grid after a purchase.
  const [basket, setBasket] = useState<number[]>([]);
  const [bought, setBought] = useState(0);
  // The one form hook, so a refusal keeps the chosen answer (React resets a form after an action it runs).
  const { result, pending, form } = useFormAction(
    async (prev: ActionResult<EntryResult> | null, data: FormData) => {
      const next = await enterCompetitionAction(prev, data);
      if (next.ok) {
        setRaw("1");
        setBought((n) => n + 1);
        void celebrate();
      }
      return next;
    },
    { clearOnSuccess: true },
  );

  const quantity = pick ? basket.length : /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  const maxQuantity = Math.min(quote.cap_left, quote.tickets_left);
  const picks = [
    ...new Set([
      ...QUICK_PICKS.filter((n) => n <= maxQuantity),
      ...(maxQuantity < 25 && maxQuantity > 0 ? [maxQuantity] : []),
    ]),
  ].sort((a, b) => a - b);
  const cost = quantity >= 1 ? quote.costs[quantity - 1] : undefined;
  const shortfall = quantity >= 1 ? quote.shortfalls[quantity - 1] : undefined;

  // The same order of checks as enter_competition: cap, then tickets left, then credit.
  let problem: React.ReactNode = null;
  if (pick && quantity < 1) problem = "Choose your numbers, or take a lucky dip";
  else if (!Number.isInteger(quantity) || quantity < 1) problem = "Choose at least one ticket";
  else if (quantity > quote.cap_left)
    problem = `You can buy at most ${quote.cap_left} more tickets for this competition`;
  else if (quantity > quote.tickets_left) problem = `Only ${quote.tickets_left} tickets left`;
  else if (shortfall !== undefined && shortfall > 0)
    problem = (
      <>
        Not enough credit: you need {formatGBP(shortfall)} more.{" "}
        <ShortfallLink
          competitionId={competitionId}
          quantity={quantity}
          className="font-semibold underline underline-offset-2"
        >
          Add credit
        </ShortfallLink>
      </>
    );

  // A wrong answer closes the question for a while (SQL says until when, in its message): the form goes
  // until the page is next loaded, when the quote says whether it is open again.
  const closedByAnswer =
    result && !result.ok && (result.code === "answer_incorrect" || result.code === "skill_answer_cooldown")
      ? result.error
      : null;

  const step = (delta: number) => setRaw(String(Math.max(1, (Number.isFinite(quantity) ? quantity : 0) + delta)));
  const buyLabel = Number.isFinite(quantity) && quantity >= 1 ? `Buy ${plural(quantity, "ticket")}` : "Buy tickets";

  return (
    <div className="flex flex-col gap-5">
      {result?.ok ? <EntrySuccess result={result.data} /> : null}

      {blocked || closedByAnswer ? (
        <p
          role={closedByAnswer ? "alert" : undefined}
          className="rounded-lg border border-border bg-muted p-4 font-medium"
        >
          {blocked ?? closedByAnswer}
        </p>
      ) : (
        <>
          {pick ? (
            <NumberPicker
              competitionId={competitionId}
              slug={slug}
              totalTickets={totalTickets}
              room={maxQuantity}
              refreshKey={bought}
              onBasket={setBasket}
            />
          ) : null}
          <form {...form} className="flex flex-col gap-5" aria-label={`Enter ${title}`}>
            <input type="hidden" name="competitionId" value={competitionId} />
            {pick ? (
              <>
                <input type="hidden" name="quantity" value={basket.length} />
                {basket.map((n) => (
                  <input key={n} type="hidden" name="numbers" value={n} />
                ))}
              </>
            ) : (
              <div className="flex flex-col gap-2">
                <label htmlFor={`${ids}-quantity`} className="font-medium">
                  Number of tickets
                </label>
                {picks.length > 1 ? (
                  <div role="group" aria-label="Quick picks" className="flex flex-wrap gap-2">
                    {picks.map((n) => (
                      <ChoiceButton key={n} pressed={quantity === n} onClick={() => setRaw(String(n))}>
                        {n === maxQuantity && !QUICK_PICKS.includes(n) ? `Max ${n}` : n}
                      </ChoiceButton>
                    ))}
                  </div>
                ) : null}
                <div className="flex items-center gap-2">
                  <Button
                    type="button"
                    variant="outline"
                    size="icon"
                    aria-label="One ticket fewer"
                    onClick={() => step(-1)}
                    disabled={!(quantity > 1)}
                  >
                    <Minus aria-hidden />
                  </Button>
                  <input
                    id={`${ids}-quantity`}
                    name="quantity"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={Math.max(1, maxQuantity)}
                    step={1}
                    value={raw}
                    onChange={(e) => setRaw(e.target.value)}
                    aria-describedby={`${ids}-limits${problem ? ` ${ids}-problem` : ""}`}
                    aria-invalid={problem ? true : undefined}
                    className="h-10 w-24 rounded-md border border-border bg-background px-3 text-center text-lg font-semibold tabular-nums outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
                  />
                  <Button
                    type="button"
                    variant="outline"
                    size="icon"
                    aria-label="One ticket more"
                    onClick={() => step(1)}
                    disabled={quantity >= maxQuantity}
                  >
                    <Plus aria-hidden />
                  </Button>
                </div>
                <p id={`${ids}-limits`} className="text-sm text-muted-foreground">
                  {quote.held > 0 ? `You hold ${plural(quote.held, "ticket")}, so you` : "You"} can buy up to{" "}
                  {plural(maxQuantity, "more ticket")} ({quote.tickets_left.toLocaleString("en-GB")} left in total).
                </p>
              </div>
            )}

            {question && options ? (
              <fieldset className="flex flex-col gap-2">
                <legend className="mb-2 font-medium">
                  Skill question: <span className="font-normal">{question}</span>
                </legend>
                {options.map((option, i) => (
                  <label
                    key={option}
                    htmlFor={`${ids}-answer-${i}`}
                    className="flex cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2.5 has-[:checked]:border-primary has-[:checked]:bg-primary-soft has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
                  >
                    <input
                      id={`${ids}-answer-${i}`}
                      type="radio"
                      name="answer"
                      value={option}
                      className="size-4 accent-[var(--primary)]"
                    />
                    {option}
                  </label>
                ))}
              </fieldset>
            ) : null}

            <dl className="grid grid-cols-2 gap-2 rounded-lg bg-muted p-4 text-sm">
              <dt className="text-muted-foreground">Total</dt>
              <dd className="text-right text-lg font-bold" data-testid="entry-total">
                {cost !== undefined ? formatGBP(cost) : "–"}
              </dd>
              <dt className="text-muted-foreground">Your credit</dt>
              <dd className="text-right font-semibold">{formatGBP(quote.balance)}</dd>
            </dl>

            {problem ? (
              // An instruction before anything is chosen is calm; a real obstacle (cap, stock, credit) warns.
              <Alert id={`${ids}-problem`} variant={pick && quantity < 1 ? "info" : "warning"} announce={false}>
                {problem}
              </Alert>
            ) : null}

            {result && !result.ok ? <EntryError message={result.error} code={result.code} slug={slug} /> : null}

            <Button type="submit" size="lg" disabled={pending || problem !== null}>
              {pending ? "Entering…" : buyLabel}
            </Button>
          </form>
        </>
      )}
    </div>
  );
}

function EntryError({ message, code, slug }: { message: string; code?: DbErrorCode; slug: string }) {
  return (
    <Alert variant="destructive">
      <AlertTitle>{message}</AlertTitle>
      {code === "insufficient_credit" ? (
        <Link href="/credit" className={alertLinkClass}>
          Add credit
        </Link>
      ) : null}
      {code === "approval_pending" ? (
        // Back here once approved: the waiting page goes on to the competition.
        <Link href={pendingApprovalPath(`/competitions/${slug}`)} className={alertLinkClass}>
          What happens next
        </Link>
      ) : null}
      <SecondStepLink code={code} className={alertLinkClass} />
    </Alert>
  );
}

/**
 * The purchase's answer with its numbers. It is brought into view and focused as it arrives: the player pressed
 * Buy at the foot of a long form (below the grid on a pick competition), and the numbers are what they came for.
 */
function EntrySuccess({ result }: { result: EntryResult }) {
  const n = result.ticket_numbers.length;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView({ block: "center" });
    box.current?.focus({ preventScroll: true });
  }, [result]);
  return (
    <div
      ref={box}
      role="status"
      tabIndex={-1}
      className="scroll-mt-20 rounded-lg border border-primary/40 bg-primary-soft p-4 outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <p className="flex items-center gap-2 text-lg font-bold">
        <PartyPopper aria-hidden className="size-5 text-primary-text" />
        You&apos;re in!
      </p>
      <p className="mt-1">
        Your {n === 1 ? "ticket number" : "ticket numbers"}:{" "}
        <span className="font-semibold">{formatTicketNumbers(result.ticket_numbers)}</span>
      </p>
      {result.instant_wins.length > 0 ? (
        <div className="mt-3 rounded-md border border-primary bg-background p-3">
          <p className="flex items-center gap-2 font-bold">
            <Gift aria-hidden className="size-5 text-primary-text" />
            Instant {result.instant_wins.length === 1 ? "win" : "wins"}!
          </p>
          <ul className="mt-1 list-disc pl-5">
            {result.instant_wins.map((w) => (
              <li key={w.ticket_number}>
                Ticket #{w.ticket_number} won {w.prize}
                {w.kind === "credit"
                  ? " (added to your credit)"
                  : w.kind === "spin"
                    ? " (a LabSpinner spin credit)"
                    : " (we will be in touch about delivery)"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="mt-1 text-sm text-muted-foreground">
        Credit left: {formatGBP(result.balance)}. A receipt is on its way by e-mail.
      </p>
    </div>
  );
}
