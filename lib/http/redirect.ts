import { NextResponse } from "next/server";
import { isLocalPath } from "@/lib/auth/paths";

/**
 * A redirect with a relative Location. Route handlers see request.url with the host Next
 * listens on (localhost), not the one the visitor used (127.0.0.1, a proxy's domain), and
 * session cookies are per host: an absolute redirect built from request.url can land the
 * visitor on a host where they are signed out. Only a local path is sent: anything else
 * (a caller's mistake; user input goes through safeNextPath first) goes home instead.
 */
export function redirectTo(pathWithQuery: string, status: 303 | 307 = 303): NextResponse {
  if (!isLocalPath(pathWithQuery)) pathWithQuery = "/";
  return new NextResponse(null, {
    status,
    headers: { Location: pathWithQuery, "Cache-Control": "private, no-store" },
  });
}
