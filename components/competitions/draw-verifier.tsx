"use client";

import { useCallback, useEffect, useId, useState } from "react";
import { CircleAlert, CircleCheck, LoaderCircle, RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { commitmentOf, verifyDraw, type PublishedDraw, type Verification } from "@/lib/draws/verify";
import { cn } from "@/lib/utils";

type State =
  | { status: "checking" }
  | { status: "done"; verification: Verification; seedHash: string | null }
  | { status: "error"; message: string };

/**
 * Recomputes a draw in this browser with WebCrypto (lib/draws/verify.ts): the seed against the
 * commitment, the ticket list against its hash and count, then the derivation itself.
 */
export function DrawVerifier({
  draw,
  heading = "Checked in your browser",
  level = 2,
}: {
  draw: PublishedDraw;
  heading?: string;
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  const headingId = useId();
  const [state, setState] = useState<State>({ status: "checking" });

  const run = useCallback(async () => {
    try {
      const [verification, seedHash] = await Promise.all([
        verifyDraw(draw),
        /^[0-9a-f]{64}$/.test(draw.seed_hex) ? commitmentOf(draw.seed_hex) : Promise.resolve(null),
      ]);
      return { status: "done", verification, seedHash } as const;
    } catch (e) {
      return { status: "error", message: e instanceof Error ? e.message : String(e) } as const;
    }
  }, [draw]);

  useEffect(() => {
    let live = true;
    void run().then((next) => live && setState(next));
    return () => {
      live = false;
    };
  }, [run]);

  const again = () => {
    setState({ status: "checking" });
    void run().then(setState);
  };

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
      <Heading id={headingId} className="text-xl font-bold">
        {heading}
      </Heading>
      <div role="status" className="mt-4">
        {state.status === "checking" ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <LoaderCircle aria-hidden className="size-5 animate-spin motion-reduce:animate-none" />
            Recomputing the draw…
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

      {state.status === "done" ? (
        <>
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
                    published {check.expected}
                    {check.ok ? "" : `, computed ${check.computed}`}
                  </p>
                </div>
              </li>
            ))}
          </ul>
          <Button type="button" variant="outline" className="mt-5" onClick={again}>
            <RotateCw aria-hidden />
            Check again
          </Button>
        </>
      ) : null}
    </section>
  );
}
