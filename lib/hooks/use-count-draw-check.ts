"use client";

import { useEffect, useRef } from "react";
import { recordDrawCheckAction } from "@/lib/actions/transparency";

/**
 * Counts this visit's browser check of a real draw on the trust page (/transparency) once it has checked out: once
 * per mount, and in SQL once per visitor network, draw and day. A count that fails to arrive only leaves the figure one lower;
 * the visitor's result is already on screen. No draw id (the demo's sample draw): nothing is counted.
 */
export function useCountDrawCheck(drawId: string | undefined, checkedOut: boolean, spreadMs = 0) {
  const counted = useRef(false);
  useEffect(() => {
    if (!checkedOut || !drawId || counted.current) return;
    const send = () => {
      counted.current = true;
      const form = new FormData();
      form.set("draw_id", drawId);
      recordDrawCheckAction(null, form).catch(() => {});
    };
    if (spreadMs === 0) return send();
    // Sent at a random moment within spreadMs, so many viewers' counts do not arrive at once; a visitor who leaves
    // first is not counted.
    const timer = setTimeout(send, (crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32) * spreadMs);
    return () => clearTimeout(timer);
  }, [drawId, checkedOut, spreadMs]);
}
