/**
 * Whether a state-changing request was sent by a page on another origin.
 * Browsers send `Sec-Fetch-Site` and `Origin` on every POST; a page on another origin, even
 * another subdomain of the same site (`same-site`), is refused, as is an opaque `Origin: null`
 * (sandboxed frames, data: URLs). A request with neither header is not from a browser and so
 * carries no victim's cookies. The host compared is the one the request came to, as Next's own
 * server-action check compares it.
 */
export function crossOriginReason(headers: Headers): string | null {
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return `Sec-Fetch-Site: ${fetchSite}`;
  const origin = headers.get("origin");
  if (origin === null) return null;
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `Origin: ${origin}`;
  }
  return host && originHost === host ? null : `Origin: ${origin}`;
}

/** True when the body is declared JSON (`text/plain` and form posts are what other sites can send without asking). */
export function isJsonRequest(headers: Headers): boolean {
  const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json";
}
