// Which requests the proxy sends to the code step when their session owes it (a verified second
// factor, no code given yet: get_my_account's two_step_owed). Pure, shared by proxy.ts and the unit tests.
import { TWO_STEP_PATH, twoStepPath, underPrefix } from "./paths";

/**
 * The pages a half-signed-in session cannot use: the account area (but the code step itself), adding
 * credit and paying, and the pages that read a player's own history. Everything they do is refused in
 * SQL until the code is given, so the visitor is sent to give it first. Admin pages have their own rule.
 */
const SECOND_STEP_PREFIXES = [
  "/account",
  "/credit",
  "/payment",
  "/purchase-success",
  "/pending-approval",
  "/labspinner/verify",
];

export function gatedBySecondStep(path: string): boolean {
  if (underPrefix(path, TWO_STEP_PATH)) return false;
  return SECOND_STEP_PREFIXES.some((prefix) => underPrefix(path, prefix));
}

/**
 * Whether the proxy must ask if this request's session owes its second step: a page request on a gated
 * path whose token is not aal2 (an aal2 session owes nothing, so most requests cost no extra call).
 * Server actions are left to refuse themselves: their refusal carries the link to the code step.
 */
export function secondStepMayBeOwed(
  request: { method: string; headers: Headers; nextUrl: { pathname: string } },
  aal: unknown,
): boolean {
  if (aal === "aal2" || request.headers.has("next-action")) return false;
  return (request.method === "GET" || request.method === "HEAD") && gatedBySecondStep(request.nextUrl.pathname);
}

/** Where a request that owes its second step goes: the code step, coming back to where it was going. */
export function secondStepRedirect(request: { url: string; nextUrl: { pathname: string; search: string } }): URL {
  return new URL(twoStepPath(request.nextUrl.pathname + request.nextUrl.search), request.url);
}
