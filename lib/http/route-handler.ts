import "server-only";
import { unstable_rethrow } from "next/navigation";
import { UNEXPECTED_ERROR } from "@/lib/http/error-words";
import { log } from "@/lib/observability/log";
import { newRequestId, requestIdFrom } from "@/lib/observability/request-id";

// Next answers a route handler that throws with an empty 500. Every route handler is wrapped in
// handleErrors instead, so a fault reads as the site's error: JSON for what a script or the page's own
// code reads, the error page's words for what a browser navigates to (a download, an e-mail link).

const NO_STORE = { "Cache-Control": "private, no-store" };

/** What an API route answers when it fails on the server (never the fault's own words: they may leak). */
export const INTERNAL_ERROR_BODY = { error: "internal_error", message: "Something went wrong" } as const;

/** Who reads the answer: code (JSON) or a person in a browser (the error page). */
export type RouteKind = "json" | "html";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/**
 * The error page (components/errors/error-page.tsx) as one self-contained document: a route handler
 * cannot render the React tree, and the site's stylesheet has a build-specific name, so the same words
 * and links come with a few inline rules that follow the device's light or dark mode.
 */
export function errorDocument(reference: string): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Something went wrong | LabCash</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.5;--bg:#ffffff;--fg:#111827;--link:#15803d}
@media (prefers-color-scheme:dark){:root{--bg:#0b1120;--fg:#f3f4f6;--link:#4ade80}}
body{margin:0;display:flex;justify-content:center;padding:4rem 1rem;text-align:center;background:var(--bg);color:var(--fg)}
main{max-width:40rem}
h1{font-size:2.5rem;margin:.5rem 0}
h2{font-size:1.5rem;margin:1.5rem 0 .5rem}
nav{display:flex;flex-wrap:wrap;gap:.75rem;justify-content:center;margin-top:2.5rem}
a{color:var(--link);font-weight:600;padding:.5rem 1rem;border:1px solid currentColor;border-radius:.5rem}
code{font-size:.8rem}
</style>
</head>
<body>
<main aria-labelledby="error-title">
<p>Error</p>
<h1 id="error-title">Oops! No prize here!</h1>
<h2>Something went wrong</h2>
<p>${escapeHtml(UNEXPECTED_ERROR)}</p>
<p><code>Reference: ${escapeHtml(reference)}</code></p>
<nav aria-label="Where to go next">
<a href="/">Back to Competitions</a>
<a href="/competitions">Browse Prizes</a>
<a href="/docs/getting-started">Docs</a>
</nav>
</main>
</body>
</html>
`;
}

/**
 * The answer to a fault in a route handler of `kind`, logged as one structured line. The reference the
 * answer shows is the request's id (the proxy's, Vercel's, or a new one), the one the log line carries.
 */
export function internalErrorResponse(kind: RouteKind, error: unknown, request?: Request): Response {
  const reference = (request && requestIdFrom(request.headers)) ?? newRequestId();
  log("error", "route_handler_failed", {
    request_id: reference,
    method: request?.method,
    path: request ? new URL(request.url).pathname : undefined,
    error,
  });
  if (kind === "json") return Response.json({ ...INTERNAL_ERROR_BODY, reference }, { status: 500, headers: NO_STORE });
  return new Response(errorDocument(reference), {
    status: 500,
    headers: { "Content-Type": "text/html; charset=utf-8", ...NO_STORE },
  });
}

/**
 * Wraps a route handler so a fault answers `internalErrorResponse(kind)` instead of an empty 500. Next's
 * own signals (redirect(), notFound(), a static render bailing out to dynamic) pass through untouched.
 */
export function handleErrors<Args extends unknown[]>(
  kind: RouteKind,
  handler: (...args: Args) => Response | Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      unstable_rethrow(error);
      return internalErrorResponse(kind, error, args[0] instanceof Request ? args[0] : undefined);
    }
  };
}
