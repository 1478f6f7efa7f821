"use client";

import { useEffect, useState } from "react";
import { hasSessionCookie, SESSION_ATTRIBUTE } from "@/lib/auth/session-cookie";

/**
 * The pattern for the personal part of a cached public page (the header's account menu; the lead
 * can give /labspinner's personal part the same shape): the page is one static document for
 * everyone and renders the signed-out state. This hook asks `url` (a route handler that answers
 * `private, no-store`, and `null` when signed out) for the visitor's data only when a session cookie
 * is present, and again whenever `key` changes (the path, or a value that changes when the page is
 * re-rendered). Signed-out visitors never make the request.
 *
 * It answers the data, or null (signed out, or not known yet). While <html data-session> is set
 * (lib/auth/session-cookie.ts) the signed-out state should be hidden behind a placeholder of the
 * same size with the `[[data-session]_&]:` variant; the attribute goes when the server says null.
 */
export function usePersonal<T>(url: string, key?: unknown): T | null {
  const [data, setData] = useState<T | null>(null);
  useEffect(() => {
    if (!hasSessionCookie()) {
      document.documentElement.removeAttribute(SESSION_ATTRIBUTE);
      return;
    }
    document.documentElement.setAttribute(SESSION_ATTRIBUTE, "");
    const controller = new AbortController();
    fetch(url, { signal: controller.signal, cache: "no-store" })
      .then((response) => (response.ok ? (response.json() as Promise<T | null>) : null))
      .then((answer) => {
        if (answer === null) document.documentElement.removeAttribute(SESSION_ATTRIBUTE);
        setData(answer);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        // Unreachable or refused: show the signed-out state rather than a placeholder for ever.
        console.error(`reading ${url} failed`, e);
        document.documentElement.removeAttribute(SESSION_ATTRIBUTE);
        setData(null);
      });
    return () => controller.abort();
  }, [url, key]);
  return data;
}
