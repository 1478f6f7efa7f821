// The account the proxy read for a page request, handed on to the page so it does not verify the session and
// read the account a second time (docs/decisions/039). No "server-only" here: proxy.ts writes it.
import type { MyAccount } from "@/lib/data/account-schema";

/**
 * A request header, never a response one. The proxy deletes it from every request it sees before anything
 * else, so a client's copy never reaches a page, and sets it itself. Paths the proxy does not run on (its
 * matcher: the cached public pages, static files) could still carry a client's copy, so only the signed-in
 * pages' helper reads it (requireUser, lib/auth/session.ts), and those paths are all matched (a unit test).
 */
export const HANDED_ON_HEADER = "x-labcash-account";

/** What the proxy verified and read: the session's assurance level (claims.aal) and get_my_account's row. */
export type HandedOn = { aal: string | null; account: MyAccount };

/** Removes any copy the client sent. The proxy's first step on every request. */
export function dropHandedOn(headers: Headers): void {
  headers.delete(HANDED_ON_HEADER);
}

/**
 * Whether the proxy hands the account on to this request: a page's GET or HEAD only. A server action (or a form
 * post to one) renders the page again after it has run, when the account read before it may be out of date.
 */
export function mayHandOn(request: { method: string; headers: Headers }): boolean {
  return (request.method === "GET" || request.method === "HEAD") && !request.headers.has("next-action");
}

/** Hands `value` on in the request's headers, when it may (above). */
export function handOn(request: { method: string; headers: Headers }, value: HandedOn): void {
  if (!mayHandOn(request)) return;
  // base64url: a header value is bytes, and a name may hold any character.
  request.headers.set(HANDED_ON_HEADER, Buffer.from(JSON.stringify(value)).toString("base64url"));
}

/** What the proxy handed on to this request, or null (then the page verifies and reads for itself). */
export function handedOnFrom(headers: Headers): HandedOn | null {
  const value = headers.get(HANDED_ON_HEADER);
  // Only the proxy writes it (above), from the row get_my_account answered and the reader checked.
  return value ? (JSON.parse(Buffer.from(value, "base64url").toString()) as HandedOn) : null;
}
