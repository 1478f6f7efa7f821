"use client";

import { useEffect, useState, type ReactNode } from "react";

/**
 * Renders its children only once the page has loaded and the browser is idle (at most 1.5 s
 * later), so what they download and run never competes with the first paint and hydration.
 */
export function WhenIdle({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancel = () => {};
    const schedule = () => {
      if (typeof window.requestIdleCallback === "function") {
        const id = window.requestIdleCallback(() => setReady(true), { timeout: 1500 });
        cancel = () => window.cancelIdleCallback(id);
      } else {
        // Safari has no requestIdleCallback.
        const id = window.setTimeout(() => setReady(true), 200);
        cancel = () => window.clearTimeout(id);
      }
    };
    if (document.readyState === "complete") schedule();
    else window.addEventListener("load", schedule, { once: true });
    return () => {
      window.removeEventListener("load", schedule);
      cancel();
    };
  }, []);
  return ready ? children : null;
}
