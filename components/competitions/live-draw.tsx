"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { liveDrawStatePath, nextPollDelay, type LiveDrawState } from "@/lib/draws/live-draw";
import { Countdown } from "./countdown";

// The reveal (WebCrypto verification, the steps) is its own chunk, fetched only once there is a draw to show:
// a page watched before its draw downloads the countdown and this poller alone.
const DrawReveal = dynamic(() => import("./draw-reveal").then((m) => m.DrawReveal));

/**
 * The live part of the live draw page: the countdown to the draw, then the draw itself, without a reload.
 * It asks the cached state route (lib/draws/live-draw.ts says how often) until the draw exists, then reveals
 * it step by step; a page rendered after the draw shows the record whole (`initial.draw`).
 */
export function LiveDraw({
  slug,
  initial,
  drawAtLabel,
}: {
  slug: string;
  initial: LiveDrawState;
  drawAtLabel: string;
}) {
  const [state, setState] = useState(initial);
  const [arrivedLive, setArrivedLive] = useState(false);
  // One more each time the page has asked, so the next round is scheduled whatever the answer was.
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (state.status !== "waiting") return;
    let stopped = false;
    const timer = setTimeout(
      async () => {
        try {
          const response = await fetch(liveDrawStatePath(slug));
          if (stopped || !response.ok) return;
          const next = (await response.json()) as LiveDrawState;
          if (stopped) return;
          if (next.status === "drawn") setArrivedLive(true);
          setState(next);
        } catch {
          // Offline for a moment: the next round asks again.
        }
        if (!stopped) setRound((r) => r + 1);
      },
      nextPollDelay(Date.parse(state.draw_at), Date.now()),
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [slug, state.status, state.draw_at, round]);

  if (state.draw) return <DrawReveal slug={slug} draw={state.draw} animate={arrivedLive} />;
  if (state.status === "cancelled")
    return <p className="text-lg font-semibold">This competition was cancelled: there is no draw.</p>;
  if (state.status === "no_tickets") {
    return <p className="text-lg font-semibold">No tickets were entered by the draw time, so there is no draw.</p>;
  }
  return (
    <div>
      <Countdown
        to={state.draw_at}
        label="Draw in"
        fallback={drawAtLabel}
        endedLabel="Drawing now: the result appears here in a moment"
        className="text-2xl"
      />
      <p className="mt-1 text-sm text-muted-foreground">
        This page updates by itself: keep it open and watch the draw happen.
      </p>
    </div>
  );
}
