// A request id ties a visitor's report to the log lines of their request. The proxy gives every request it
// sees one (or keeps the one a trusted front, Vercel or a load balancer, already set); a route handler or
// the error hook reads it from the request's headers, and makes one when the proxy did not run.

export const REQUEST_ID_HEADER = "x-request-id";

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
