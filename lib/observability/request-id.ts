// A request id ties a visitor's report to the log lines of their request. The proxy gives every request it
// sees one (or keeps the one a trusted front, Vercel or a load balancer, already set); a route handler or
// the error hook reads it from the request's headers, and makes one when the proxy did not run. The answer
// carries it twice: as x-request-id, and as a Server-Timing entry, the one response header a page's scripts
// can read back (PerformanceResourceTiming.serverTiming), so the error page can show it as its reference.
// No imports: the error page's browser code uses this file too.

export const REQUEST_ID_HEADER = "x-request-id";

/** The Server-Timing metric that carries the request id: `request;desc="<id>"`. */
export const REQUEST_ID_TIMING = "request";

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The request's id: ours (set by the proxy), else Vercel's, else null. Only safe characters are kept. */
export function requestIdFrom(headers: HeaderSource): string | null {
  for (const name of [REQUEST_ID_HEADER, "x-vercel-id"]) {
    const value = header(headers, name);
    if (value && SAFE_ID.test(value)) return value;
  }
  return null;
}

export const newRequestId = (): string => crypto.randomUUID();

/** The Server-Timing entry for an id (only safe characters, so the quoted string needs no escaping). */
export const requestIdTiming = (id: string): string => `${REQUEST_ID_TIMING};desc="${id}"`;

type TimedEntry = {
  name: string;
  responseEnd: number;
  serverTiming?: readonly { name: string; description: string }[];
};

/**
 * In the browser: the request id of the newest answer to `pathname` that carried one, from the document's
 * navigation entry and the fetches made since (a client-side navigation's RSC request, a server action's post).
 * Only answers for the page being shown count, so an island's later /api call is never taken for the failed
 * request; null when none carried an id (a cached public page the proxy does not see, or a browser that keeps
 * Server-Timing from pages served without HTTPS).
 */
export function requestIdOfNewest(entries: readonly TimedEntry[], pathname: string, origin: string): string | null {
  let newest: { id: string; at: number } | null = null;
  for (const entry of entries) {
    const url = new URL(entry.name, origin);
    if (url.origin !== origin || url.pathname !== pathname) continue;
    const timing = entry.serverTiming?.find((t) => t.name === REQUEST_ID_TIMING && SAFE_ID.test(t.description));
    if (timing && (!newest || entry.responseEnd >= newest.at))
      newest = { id: timing.description, at: entry.responseEnd };
  }
  return newest?.id ?? null;
}
