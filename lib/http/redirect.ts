import { NextResponse } from "next/server";

/**
 * A redirect with a relative Location. Route handlers see request.url with the host Next
 * listens on (localhost), not the one the visitor used (127.0.0.1, a proxy's domain), and
 * session cookies are per host: an absolute redirect built from request.url can land the
 * visitor on a host where they are signed out.
 */
export function redirectTo(pathWithQuery: string, status: 303 | 307 = 303): NextResponse {
  return new NextResponse(null, {
    status,
    headers: { Location: pathWithQuery, "Cache-Control": "private, no-store" },
  });
}
