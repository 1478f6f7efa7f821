"use client";

import { useEffect, useRef } from "react";
import { recordDrawCheckAction } from "@/lib/actions/transparency";

/**
 * Counts this visit's browser check of a real draw on the trust page (/transparency) once it has checked out: once
 * per mount, and in SQL once per visitor, draw and day. A count that fails to arrive only leaves the figure one lower;
 * the visitor's result is already on screen. No draw id (the demo's sample draw): nothing is counted.
 */
export function useCountDrawCheck(drawId: string | undefined, checkedOut: boolean) {
  const counted = useRef(false);
  useEffect(() => {
    if (!checkedOut || !drawId || counted.current) return;
    counted.current = true;
    const form = new FormData();
    form.set("draw_id", drawId);
    recordDrawCheckAction(null, form).catch(() => {});
  }, [drawId, checkedOut]);
}
