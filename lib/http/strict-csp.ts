// The proxy's one call for the strict Content-Security-Policy (lib/http/security-headers.ts).
import { env } from "@/lib/env";
import { newNonce, strictContentSecurityPolicy, strictCspPath } from "./security-headers";

/**
 * On the pages rendered per request (`strictCspPath`), a fresh nonce and its policy: on the request,
 * where Next reads the nonce to stamp its scripts (the proxy forwards the request's headers with
 * `NextResponse.next({ request })`), and on whatever response `respond` makes: the page, a redirect
 * or a refusal. next.config.ts sets no policy on these paths, so this is the only one. Other paths
 * pass untouched and keep the cached pages' policy from next.config.ts.
 */
export async function withStrictCsp<R extends { headers: Headers }>(
  request: { nextUrl: { pathname: string }; headers: Headers },
  respond: () => Promise<R>,
): Promise<R> {
  if (!strictCspPath(request.nextUrl.pathname)) return respond();
  const policy = strictContentSecurityPolicy({ development: env().NODE_ENV === "development", nonce: newNonce() });
  request.headers.set("Content-Security-Policy", policy);
  const response = await respond();
  response.headers.set("Content-Security-Policy", policy);
  return response;
}
