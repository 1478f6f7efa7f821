"use client";

import { useSyncExternalStore } from "react";
import { requestIdOfNewest } from "@/lib/observability/request-id";

// The error page's reference: the request id of the failed request, which the proxy sends in a
// Server-Timing entry and the request's `request_error` log line carries, so a player's quoted reference finds
// the line. A failed client-side navigation's fetch enters the browser's timeline only once its answer has
// ended, which can be after the error boundary first renders: the observer re-reads the timeline then.

function subscribe(onChange: () => void): () => void {
  if (typeof PerformanceObserver === "undefined") return () => {};
  const observer = new PerformanceObserver(onChange);
  observer.observe({ type: "resource" });
  return () => observer.disconnect();
}

function newestRequestId(): string | null {
  const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
  return requestIdOfNewest(entries as PerformanceResourceTiming[], location.pathname, location.origin);
}

/**
 * The reference an error page shows for a server error (one with a digest): the failed request's id, else the
 * digest (no id: a page the proxy does not see). An error thrown in the browser has no digest, no log line and
 * so no reference.
 */
export function useRequestReference(digest: string | undefined): string | undefined {
  const requestId = useSyncExternalStore(subscribe, newestRequestId, () => null);
  return digest && (requestId ?? digest);
}
