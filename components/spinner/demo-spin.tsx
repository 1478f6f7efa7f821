"use client";

import { Link } from "@/components/ui/link";
import { useState, useSyncExternalStore } from "react";
import { buttonClasses, Button } from "@/components/ui/button";
import { pickDemoSegment } from "@/lib/spinner/demo-pick";
import { useSpinnerStage } from "./spinner-stage";

const subscribeToNothing = () => () => {};

export type DemoSegment = { position: number; label: string; weight: number };

/**
 * Signed-out visitors: a spin to see the wheel move. It is picked in the browser with the real
 * weights, and it wins nothing — the button and the result both say so.
 */
export function DemoSpin({ segments }: { segments: DemoSegment[] }) {
  const stage = useSpinnerStage();
  const [spinning, setSpinning] = useState(false);
  const [landed, setLanded] = useState<DemoSegment | null>(null);
  // Enabled once hydrated: a click before that would do nothing.
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );

  async function spin() {
    setSpinning(true);
    setLanded(null);
    const position = pickDemoSegment(segments.map((segment) => segment.weight));
    await stage.spinTo(position);
    setLanded(segments.find((segment) => segment.position === position) ?? null);
    setSpinning(false);
  }

  return (
    <section
      aria-labelledby="demo-spin-heading"
      className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4 sm:p-5"
    >
      <h2 id="demo-spin-heading" className="text-xl font-semibold">
        Try a demo spin
      </h2>
      <p className="rounded-md border border-warning/40 bg-warning-soft p-3 text-sm font-medium text-warning-soft-foreground">
        Demo spin — you win nothing. Sign in to spin for real.
      </p>
      {/* The button right after the notice: on a phone it is on the first screen with the wheel. */}
      <Button type="button" size="lg" onClick={spin} disabled={!hydrated || spinning}>
        {spinning ? "Spinning…" : "Demo spin"}
      </Button>
      <p role="status" className="min-h-6 font-semibold">
        {landed ? `Demo spin: the wheel stopped on ${landed.label}. This was a demo, so you win nothing.` : null}
      </p>
      <p className="text-muted-foreground">
        The demo uses the same segments and odds as the real wheel, picked in your browser. Real spins are decided by
        our server from your own seeds, and you can check every one.
      </p>
      <div className="flex flex-wrap gap-3">
        <Link href="/login?next=/labspinner" className={buttonClasses("outline", "md")}>
          Sign in to spin
        </Link>
        <Link href="/signup" className={buttonClasses("ghost", "md")}>
          Create an account
        </Link>
      </div>
    </section>
  );
}
