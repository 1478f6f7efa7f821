"use client";

import { useCallback, useEffect, useId, useRef, useState } from "react";
import { CircleAlert, CircleCheck, LoaderCircle, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import {
  commitmentOf,
  verifyPublishedDraw,
  type PublishedDraw,
  type Verification,
  type VerifyProgress,
} from "@/lib/draws/verify";
import { useCountDrawCheck } from "@/lib/hooks/use-count-draw-check";
import { cn } from "@/lib/utils";

type Timings = { downloadMs: number | null; totalMs: number; bytes: number | null };

type State =
  | { status: "checking"; progress: VerifyProgress | null }
  | { status: "done"; verification: Verification; seedHash: string | null; timings: Timings }
  | { status: "error"; message: string };

const count = (n: number) => n.toLocaleString("en-GB");
const size = (bytes: number) =>
  bytes < 1_000_000
    ? `${(bytes / 1000).toLocaleString("en-GB", { maximumFractionDigits: 1 })} kB`
    : `${(bytes / 1_000_000).toLocaleString("en-GB", { maximumFractionDigits: 1 })} MB`;
const seconds = (ms: number) => `${(ms / 1000).toLocaleString("en-GB", { maximumFractionDigits: 1 })} s`;

/**
 * Recomputes a draw in this browser with WebCrypto (lib/draws/verify.ts): the seed against the
 * commitment, the ticket list against its hash and count, then the derivation itself. A v1 draw
 * carries its list; a v2 draw's list is downloaded from `ticketListUrl` (the entry list's ticket-list
 * CSV, up to about 45 MB for 1,000,000 tickets) and read as it arrives, with progress shown.
 */
export function DrawVerifier({
  draw,
  ticketListUrl,
  heading = "Checked in your browser",
  level = 2,
  countAs,
}: {
  draw: PublishedDraw;
  /** A real draw's id: a check that checks out is counted on the trust page (/transparency), once a visit. */
  countAs?: string;
  /** Where the v2 ticket list is (required for labcash-draw-v2). */
  ticketListUrl?: string;
  heading?: string;
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  const headingId = useId();
  const progressId = useId();
  const [state, setState] = useState<State>({ status: "checking", progress: null });
  const running = useRef<AbortController | null>(null);

  const run = useCallback(
    async (signal: AbortSignal, onProgress: (p: VerifyProgress) => void): Promise<State> => {
      const started = performance.now();
      let downloadMs: number | null = null;
      let bytes: number | null = null;
      try {
        const seedHash = /^[0-9a-f]{64}$/.test(draw.seed_hex) ? await commitmentOf(draw.seed_hex) : null;
        const verification = await verifyPublishedDraw(draw, {
          ticketListUrl,
          signal,
          onProgress(progress) {
            if (progress.stage === "hash" && downloadMs === null) {
              downloadMs = performance.now() - started;
              bytes = progress.bytes;
            }
            onProgress(progress);
          },
        });
        return {
          status: "done",
          verification,
          seedHash,
          timings: { downloadMs, bytes, totalMs: performance.now() - started },
        };
      } catch (e) {
        return { status: "error", message: e instanceof Error ? e.message : String(e) };
      }
    },
    [draw, ticketListUrl],
  );

  const start = useCallback(() => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const live = () => !controller.signal.aborted;
    void run(controller.signal, (progress) => {
      if (live()) setState({ status: "checking", progress });
    }).then((next) => {
      if (live()) setState(next);
    });
    return controller;
  }, [run]);

  useEffect(() => {
    const controller = start();
    return () => controller.abort();
  }, [start]);

  useCountDrawCheck(countAs, state.status === "done" && state.verification.ok);

  const again = () => {
    setState({ status: "checking", progress: null });
    start();
  };

  const progress = state.status === "checking" ? state.progress : null;

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
      <Heading id={headingId} className="text-xl font-bold">
        {heading}
      </Heading>
      <div role="status" className="mt-4">
        {state.status === "checking" ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircle aria-hidden className="size-5 animate-spin motion-reduce:animate-none" />
            {progress?.stage === "download"
              ? "Downloading the ticket list…"
              : progress?.stage === "hash"
                ? "Hashing the ticket list…"
                : "Recomputing the draw…"}
          </p>
        ) : state.status === "error" ? (
          <p className="flex items-center gap-2 font-semibold text-destructive">
            <CircleAlert aria-hidden className="size-5" />
            The check could not run: {state.message}
          </p>
        ) : state.verification.ok ? (
          <p className="flex items-center gap-2 text-xl font-bold text-primary-text">
            <CircleCheck aria-hidden className="size-6" />
            This draw checks out
          </p>
        ) : (
          <p className="flex items-center gap-2 text-xl font-bold text-destructive">
            <CircleAlert aria-hidden className="size-6" />
            This draw does not check out:{" "}
            {state.verification.checks
              .filter((c) => !c.ok)
              .map((c) => c.name)
              .join(", ")}
          </p>
        )}
      </div>

      {/* Outside the live region: the figures change many times a second. */}
      {progress?.stage === "download" ? (
        <div className="mt-3 text-sm">
          <progress
            id={progressId}
            className="h-2 w-full accent-primary"
            max={Math.max(progress.expectedRows, 1)}
            value={Math.min(progress.rows, progress.expectedRows)}
            aria-label="Ticket list downloaded"
          />
          <p className="mt-1 text-muted-foreground tabular-nums">
            {count(progress.rows)} of {count(progress.expectedRows)} tickets ({size(progress.bytes)})
          </p>
        </div>
      ) : progress?.stage === "hash" ? (
        <p className="mt-3 text-sm text-muted-foreground tabular-nums">
          {count(progress.rows)} tickets ({size(progress.bytes)}) downloaded.
        </p>
      ) : null}

      {state.status === "done" ? (
        <>
          {state.timings.downloadMs !== null && state.timings.bytes !== null ? (
            <p
              className="mt-3 text-sm text-muted-foreground"
              data-testid="verify-timings"
              data-download-ms={Math.round(state.timings.downloadMs)}
              data-total-ms={Math.round(state.timings.totalMs)}
              data-bytes={state.timings.bytes}
            >
              Checked {count(draw.ticket_count)} tickets ({size(state.timings.bytes)}) in{" "}
              {seconds(state.timings.totalMs)}: {seconds(state.timings.downloadMs)} to download, the rest to hash and
              derive.
            </p>
          ) : null}
          {state.seedHash ? (
            <div className="mt-5 rounded-lg bg-muted p-4 text-sm">
              <p className="font-semibold">Commitment = SHA-256(seed)?</p>
              <p className="mt-2 text-muted-foreground">Published before sales</p>
              <p className="font-mono break-all">{draw.seed_commitment}</p>
              <p className="mt-2 text-muted-foreground">SHA-256 of the revealed seed, computed here</p>
              <p className="font-mono break-all">{state.seedHash}</p>
              <p
                className={cn(
                  "mt-2 font-semibold",
                  state.seedHash === draw.seed_commitment ? "text-primary-text" : "text-destructive",
                )}
              >
                {state.seedHash === draw.seed_commitment ? "They match." : "They do not match."}
              </p>
            </div>
          ) : null}
          <ul className="mt-5 flex flex-col gap-2" aria-label="Checks">
            {state.verification.checks.map((check) => (
              <li key={check.name} className="flex gap-3 rounded-lg border border-border p-3 text-sm">
                {check.ok ? (
                  <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-primary-text" />
                ) : (
                  <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
                )}
                <div className="min-w-0">
                  <p className="font-semibold">
                    {check.name}: {check.ok ? "passes" : "fails"}
                  </p>
                  <p className="font-mono break-all text-muted-foreground">
                    {check.source === "format" ? "expected" : "published"} {check.expected}
                    {check.ok ? "" : `, computed ${check.computed}`}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {state.status !== "checking" ? (
        <Button type="button" variant="outline" className="mt-5" onClick={again}>
          <RotateCw aria-hidden />
          Check again
        </Button>
      ) : null}
    </section>
  );
}
