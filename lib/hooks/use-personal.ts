"use client";

import { useEffect, useState } from "react";
import { hasSessionCookie, SESSION_ATTRIBUTE } from "@/lib/auth/session-cookie";

/** Asked again on focus or on coming back to the tab only when the last answer is older than this. */
const FRESH_ENOUGH_MS = 2_000;

/**
 * The pattern for the personal part of a cached public page (the header's account menu; the lead
 * can give /labspinner's personal part the same shape): the page is one static document for
 * everyone and renders the signed-out state. This hook asks `url` (a route handler that answers
 * `private, no-store`, and `null` when signed out) for the visitor's data only when a session cookie
 * is present, and again whenever `key` changes (the path, or a value that changes when the page is
 * re-rendered). Signed-out visitors never make the request.
 *
 * With `refreshEveryMs` it keeps the answer current without a reload (docs/decisions/054): every that many
 * milliseconds while the tab is visible, at once when the tab comes back or the window regains focus, and not at
 * all while the tab is hidden. The backend has no push channel, so this light poll is how news arrives.
 *
 * It answers the data, or null (signed out, or not known yet). While <html data-session> is set
 * (lib/auth/session-cookie.ts) the signed-out state should be hidden behind a placeholder of the
 * same size with the `[[data-session]_&]:` variant; the attribute goes when the server says null.
 */
export function usePersonal<T>(url: string, key?: unknown, refreshEveryMs?: number): T | null {
  const [data, setData] = useState<T | null>(null);
  useEffect(() => {
    if (!hasSessionCookie()) {
      document.documentElement.removeAttribute(SESSION_ATTRIBUTE);
      return;
    }
    document.documentElement.setAttribute(SESSION_ATTRIBUTE, "");
    let controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let askedAt = 0;
    let answered = false;
    let stopped = false;

    const ask = () => {
      controller.abort();
      controller = new AbortController();
      const { signal } = controller;
      askedAt = Date.now();
      clearTimeout(timer);
      fetch(url, { signal, cache: "no-store" })
        .then((response) => {
          if (response.ok) return response.json() as Promise<T | null>;
          // Refused on a later round: keep what the page shows; the next round asks again.
          return answered ? undefined : null;
        })
        .then((answer) => {
          if (answer === undefined) return;
          answered = true;
          if (answer === null) {
            // Signed out (meanwhile): nothing personal to keep asking for.
            document.documentElement.removeAttribute(SESSION_ATTRIBUTE);
            stopped = true;
          }
          setData(answer);
        })
        .catch((e: unknown) => {
          if (signal.aborted || answered) return;
          // Unreachable at first: show the signed-out state rather than a placeholder for ever.
          console.error(`reading ${url} failed`, e);
          document.documentElement.removeAttribute(SESSION_ATTRIBUTE);
          setData(null);
        })
        .finally(() => {
          if (signal.aborted || stopped || !refreshEveryMs || document.visibilityState !== "visible") return;
          timer = setTimeout(ask, refreshEveryMs);
        });
    };
    const askIfStale = () => {
      if (stopped || document.visibilityState !== "visible") {
        clearTimeout(timer);
        return;
      }
      if (Date.now() - askedAt >= FRESH_ENOUGH_MS) ask();
      else if (refreshEveryMs) {
        // Back within moments of the last answer: no need to ask now, but the rounds go on.
        clearTimeout(timer);
        timer = setTimeout(ask, refreshEveryMs);
      }
    };

    ask();
    if (refreshEveryMs) {
      document.addEventListener("visibilitychange", askIfStale);
      window.addEventListener("focus", askIfStale);
    }
    return () => {
      controller.abort();
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", askIfStale);
      window.removeEventListener("focus", askIfStale);
    };
  }, [url, key, refreshEveryMs]);
  return data;
}
