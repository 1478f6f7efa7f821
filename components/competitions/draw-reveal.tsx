"use client";

import { Link } from "@/components/ui/link";
import { useEffect, useId, useState } from "react";
import { CircleAlert, CircleCheck, LoaderCircle, ShieldCheck } from "lucide-react";
import { prizeChecks, revealSteps, type LiveDraw, type RevealStep } from "@/lib/draws/live-draw";
import { verifyPublishedDraw, type CheckStep, type Verification } from "@/lib/draws/verify";
import { useCountDrawCheck } from "@/lib/hooks/use-count-draw-check";
import { endSentence, formatWinner, ordinal } from "@/lib/format";
import { cn } from "@/lib/utils";
import { DrawOutcomeForViewer } from "./draw-outcome";

/** The pause between two revealed steps while the draw is watched live. */
const STEP_MS = 1500;

const TITLES: Record<CheckStep | "winner", string> = {
  seed: "The seed matches its commitment",
  list: "The ticket list and its hash",
  derivation: "The derivation",
  ticket: "The winning ticket",
  winner: "The winner",
};

type Result =
  { status: "checking" } | { status: "done"; verification: Verification } | { status: "error"; message: string };

const count = (n: number) => n.toLocaleString("en-GB");

/**
 * The draw, recomputed in this browser by the verification page's own code (verifyPublishedDraw) and shown as
 * the steps it takes: the seed against its commitment, the ticket list against its hash, the derivation, the
 * winning ticket, then the winner. Watched live (`animate`) the steps appear one by one; with reduced motion,
 * or on the record after the draw, all at once. The live region says each step and the verdict; once the reveal
 * has ended, a second one says what it meant for a signed-in viewer.
 */
export function DrawReveal({ slug, draw, animate }: { slug: string; draw: LiveDraw; animate: boolean }) {
  const headingId = useId();
  const [result, setResult] = useState<Result>({ status: "checking" });
  // Watched live, the reveal is only ever mounted in the browser (after a poll), so the device's setting is there to read.
  const [stepByStep] = useState(() => animate && !window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  const [shown, setShown] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    verifyPublishedDraw(draw, { ticketListUrl: draw.ticket_list_url ?? undefined, signal: controller.signal }).then(
      (verification) => !controller.signal.aborted && setResult({ status: "done", verification }),
      (e: unknown) =>
        !controller.signal.aborted &&
        setResult({ status: "error", message: e instanceof Error ? e.message : String(e) }),
    );
    return () => controller.abort();
  }, [draw]);

  // Watched live, every viewer's check ends at the same moment: their counts are spread over half a minute.
  useCountDrawCheck(draw.id, result.status === "done" && result.verification.ok, animate ? 30_000 : 0);

  const steps = result.status === "done" ? revealSteps(result.verification) : [];
  // The winners come last, one step each: with several prizes the last prize first, the first prize at the end.
  const prizes = draw.prizes?.length ? [...draw.prizes].reverse() : null;
  const winnerSteps = prizes?.length ?? 1;
  const total = steps.length + winnerSteps;
  const visible = stepByStep ? Math.min(shown, total) : total;

  useEffect(() => {
    if (!stepByStep || result.status !== "done" || shown >= total) return;
    const timer = setTimeout(() => setShown((n) => n + 1), shown === 0 ? 0 : STEP_MS);
    return () => clearTimeout(timer);
  }, [stepByStep, result.status, shown, total]);

  const finished = result.status === "done" && visible === total;
  const latest = visible > 0 && visible <= steps.length ? steps[visible - 1] : null;

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
      <h2 id={headingId} className="text-2xl font-bold tracking-tight">
        The draw, checked in your browser
      </h2>
      {animate ? null : (
        <p className="mt-2 text-lg">
          Ticket <span className="font-semibold">#{draw.winning_number}</span> of {count(draw.ticket_count)} won:{" "}
          <span className="font-semibold">{endSentence(draw.winner)}</span>
        </p>
      )}
      <div role="status" className="mt-4 text-lg">
        {result.status === "error" ? (
          <p className="flex items-center gap-2 font-semibold text-destructive">
            <CircleAlert aria-hidden className="size-5" />
            The check could not run: {result.message}
          </p>
        ) : result.status === "checking" ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircle aria-hidden className="size-5 animate-spin motion-reduce:animate-none" />
            The draw has happened: recomputing it in your browser…
          </p>
        ) : finished ? (
          <Verdict verification={result.verification} />
        ) : latest ? (
          <p>
            Step {visible} of {total}: {TITLES[latest.step].toLowerCase()}, {latest.ok ? "checked" : "does not check"}.
          </p>
        ) : prizes && visible > steps.length ? (
          <p>
            Step {visible} of {total}: the {ordinal(prizes[visible - steps.length - 1].prize_position)} prize goes to
            ticket #{prizes[visible - steps.length - 1].winning_number}.
          </p>
        ) : null}
      </div>
      <div role="status" data-testid="live-draw-outcome">
        {finished ? (
          <DrawOutcomeForViewer
            slug={slug}
            winners={draw.prizes?.length ? draw.prizes : [{ prize_position: 1, winning_number: draw.winning_number }]}
          />
        ) : null}
      </div>

      <ol className="mt-5 flex flex-col gap-3">
        {steps.slice(0, visible).map((step, i) => (
          <Step
            key={step.step}
            index={i + 1}
            step={step}
            draw={draw}
            verification={result.status === "done" ? result.verification : null}
            animate={stepByStep}
          />
        ))}
        {prizes && prizes.length > 1 && result.status === "done"
          ? prizes.slice(0, Math.max(0, visible - steps.length)).map((p, i) => {
              const checks = prizeChecks(result.verification, p.prize_position);
              return (
                <li
                  key={p.prize_position}
                  className={cn(
                    "rounded-xl border-2 p-4",
                    p.prize_position === 1 ? "border-primary bg-primary-soft" : "border-border",
                    stepByStep && "motion-safe:draw-step-in",
                  )}
                >
                  <h3 className="font-semibold">
                    {steps.length + i + 1}. The {ordinal(p.prize_position)} prize: {p.prize_description}
                  </h3>
                  <p className="mt-1 text-2xl font-extrabold" data-testid="live-draw-winner">
                    {formatWinner(p)}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    Holder of ticket #{p.winning_number}, row {count(p.winning_position ?? p.winning_number)} of the
                    list, picked by counter {p.counter}:{" "}
                    {checks.length > 0 && checks.every((c) => c.ok)
                      ? "recomputed here and the same."
                      : `does not check: ${checks
                          .filter((c) => !c.ok)
                          .map((c) => c.name)
                          .join(", ")}.`}
                  </p>
                </li>
              );
            })
          : null}
        {(!prizes || prizes.length === 1) && visible === total && result.status === "done" ? (
          <li
            className={cn(
              "rounded-xl border-2 border-primary bg-primary-soft p-4",
              stepByStep && "motion-safe:draw-step-in",
            )}
          >
            <h3 className="font-semibold">
              {total}. {TITLES.winner}
            </h3>
            <p className="mt-1 text-2xl font-extrabold" data-testid="live-draw-winner">
              {draw.winner}
            </p>
            <p className="text-sm text-muted-foreground">
              Holder of ticket #{draw.winning_number}, named as on the winners page (first name and initial, and town).
            </p>
          </li>
        ) : null}
      </ol>

      <Link
        href={`/winners/${draw.id}`}
        className="mt-5 inline-flex items-center gap-2 font-semibold text-primary-text underline underline-offset-4"
      >
        <ShieldCheck aria-hidden className="size-4" />
        Every input, on the verification page
      </Link>
    </section>
  );
}

function Verdict({ verification }: { verification: Verification }) {
  if (verification.ok) {
    return (
      <p className="flex items-center gap-2 text-xl font-bold text-primary-text">
        <CircleCheck aria-hidden className="size-6" />
        This draw checks out
      </p>
    );
  }
  return (
    <p className="flex items-center gap-2 text-xl font-bold text-destructive">
      <CircleAlert aria-hidden className="size-6" />
      This draw does not check out:{" "}
      {verification.checks
        .filter((c) => !c.ok)
        .map((c) => c.name)
        .join(", ")}
    </p>
  );
}

/** What a step shows beside its checks: the values it works on. */
function stepFacts(step: CheckStep, draw: LiveDraw, verification: Verification | null): [string, string][] {
  // With several prizes, each prize's counter, row and ticket come with its winner, last prize first.
  if ((draw.prizes?.length ?? 0) > 1 && step === "derivation")
    return [
      [
        "How",
        "SHA-256(seed ‖ competition id ‖ ticket list hash ‖ external randomness ‖ counter), first 6 bytes as a number x; (x mod N) + 1 is a winning row; counting on, each row no earlier prize took goes to the next prize",
      ],
      ["Prizes", String(draw.prizes?.length)],
    ];
  switch (step) {
    case "seed":
      return [
        ["Commitment, published before any sale", draw.seed_commitment],
        ["Seed, revealed at the draw", draw.seed_hex],
      ];
    case "list":
      return [["Tickets in the draw", count(draw.ticket_count)]];
    case "derivation":
      return [
        [
          "How",
          "SHA-256(seed ‖ competition id ‖ ticket list hash ‖ external randomness ‖ counter), first 6 bytes as a number x; (x mod N) + 1 is the winning row",
        ],
        ["Counter", String(verification?.counter ?? draw.counter)],
        [
          "Winning row",
          `${count(verification?.winningPosition ?? verification?.winningNumber ?? draw.winning_number)} of ${count(draw.ticket_count)}`,
        ],
      ];
    case "ticket":
      return [
        ["Winning number", `#${draw.winning_number}`],
        ["Ticket id", draw.winning_ticket_id],
      ];
  }
}

function Step({
  index,
  step,
  draw,
  verification,
  animate,
}: {
  index: number;
  step: RevealStep;
  draw: LiveDraw;
  verification: Verification | null;
  animate: boolean;
}) {
  return (
    <li className={cn("rounded-xl border border-border p-4", animate && "motion-safe:draw-step-in")}>
      <h3 className="flex items-center gap-2 font-semibold">
        {step.ok ? (
          <CircleCheck aria-hidden className="size-5 shrink-0 text-primary-text" />
        ) : (
          <CircleAlert aria-hidden className="size-5 shrink-0 text-destructive" />
        )}
        {index}. {TITLES[step.step]}
      </h3>
      <dl className="mt-2 flex flex-col gap-1.5 text-sm">
        {stepFacts(step.step, draw, verification).map(([term, value]) => (
          <div key={term}>
            <dt className="text-muted-foreground">{term}</dt>
            <dd className="font-mono break-all">{value}</dd>
          </div>
        ))}
      </dl>
      <ul className="mt-3 flex flex-col gap-1.5 text-sm" aria-label={`Checks: ${TITLES[step.step]}`}>
        {step.checks.map((check) => (
          <li key={check.name}>
            <span className="font-semibold">
              {check.name}: {check.ok ? "passes" : "fails"}
            </span>
            <span className="block font-mono break-all text-muted-foreground">
              {check.source === "format" ? "expected" : "published"} {check.expected}, computed here {check.computed}
            </span>
          </li>
        ))}
      </ul>
    </li>
  );
}
