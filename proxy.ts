import { NextResponse, type NextRequest } from "next/server";
import {
  exemptFromApproval,
  isAdminPath,
  needsSession,
  pageAddressOf,
  pendingApprovalPath,
  twoStepPath,
} from "@/lib/auth/paths";
import { hasSessionCookieIn } from "@/lib/auth/session-cookie";
import { dropHandedOn, handOn, mayHandOn } from "@/lib/auth/handed-on";
import { secondStepMayBeOwed, secondStepRedirect } from "@/lib/auth/second-step";
import { isAdminRole, myAccount } from "@/lib/data/account-schema";
import { callRpcWith } from "@/lib/data/rpc";
import { botNotFound } from "@/lib/http/bot-not-found";
import { refuseBadRequest } from "@/lib/http/request-guard";
import { withStrictCsp } from "@/lib/http/strict-csp";
import { log } from "@/lib/observability/log";
import { REQUEST_ID_HEADER, newRequestId, requestIdFrom, requestIdTiming } from "@/lib/observability/request-id";
import { updateSession } from "@/lib/supabase/proxy";

export const ADMIN_DENIED = "Access denied: Admin privileges required";

/**
 * First of three guards (proxy → layout/action → SQL): refreshes the session,
 * sends signed-out visitors to /login (remembering where they were going),
 * unapproved users to /pending-approval, answers non-admins on /admin with 403, and sends admins
 * whose session has not passed two-step verification, and players who have two-step on and have not
 * given their code (lib/auth/second-step.ts), to give it.
 */
export async function proxy(request: NextRequest) {
  // Every request the proxy sees carries a request id (Vercel's, or a new one): on the request, where route
  // handlers and the error hook read it for their log lines, and on the answer, for whoever reports it: as a
  // header, and as a Server-Timing entry, which the error page reads back to show as its reference.
  const requestId = requestIdFrom(request.headers) ?? newRequestId();
  request.headers.set(REQUEST_ID_HEADER, requestId);
  // Only this proxy may hand the page its account (lib/auth/handed-on.ts): a client's copy goes first.
  dropHandedOn(request.headers);
  // The pages rendered per request get a strict, nonce-based CSP on whatever the guard answers.
  const response = await withStrictCsp(request, () => guard(request));
  response.headers.set(REQUEST_ID_HEADER, requestId);
  response.headers.append("Server-Timing", requestIdTiming(requestId));
  return response;
}

async function guard(request: NextRequest) {
  const path = request.nextUrl.pathname;
  // What Next answers with a 500 is refused here for what it is: a malformed or NUL-escaped path (404),
  // a server action or form post from another origin, other subdomains too (403), a body no action can
  // decode (400). lib/http/request-guard.ts.
  const refused = await refuseBadRequest(request);
  if (refused) return refused;
  // A crawler asking for a doc, blog post or competition that does not exist gets a bare 404 (lib/http/bot-not-found.ts).
  const forCrawler = await botNotFound(path, request.headers.get("user-agent"));
  if (forCrawler) return forCrawler;
  // No session cookie, nothing to refresh or verify: signed-out visitors (most of the traffic on the
  // cached public pages) pass without a Supabase client being made for them.
  if (!hasSessionCookieIn(request.cookies.getAll()) && !needsSession(path)) return NextResponse.next({ request });
  const { supabase, claims, response } = await updateSession(request);

  const redirectKeepingCookies = (to: URL) => {
    const redirect = NextResponse.redirect(to);
    for (const cookie of response().cookies.getAll()) redirect.cookies.set(cookie);
    redirect.headers.set("Cache-Control", "private, no-store");
    return redirect;
  };

  if (!claims) {
    if (needsSession(path)) {
      const login = new URL("/login", request.url);
      login.searchParams.set("next", path + request.nextUrl.search);
      return redirectKeepingCookies(login);
    }
    return response();
  }

  // A session that has two-step on but has not given its code (aal1) is sent to give it first.
  const checkSecondStep = secondStepMayBeOwed(request, claims.aal);
  // A signed-in page would read the account itself: read here, it is handed on and the page reads nothing more.
  const forPage = needsSession(path) && mayHandOn(request);
  if (exemptFromApproval(path) && !checkSecondStep && !forPage) return response();

  // One small RPC, only on the paths that depend on approval, role or the second step, and the signed-in pages.
  // If it fails the visitor is treated as unapproved, not an admin, owing nothing; the page and the SQL check again.
  const account = await callRpcWith(supabase, "get_my_account", {}, myAccount).catch((e: unknown) => {
    log("error", "proxy_account_failed", { request_id: requestIdFrom(request.headers), path, error: e });
    return null;
  });
  // The page need not verify the session and read the account again (requireUser).
  if (account) handOn(request, { aal: claims.aal ?? null, account });
  if (checkSecondStep && account?.two_step_owed) return redirectKeepingCookies(secondStepRedirect(request));
  if (exemptFromApproval(path)) return response();
  const approved = account?.approved ?? false;
  const admin = isAdminRole(account?.role);

  if (isAdminPath(path) && !admin) {
    const denied = NextResponse.rewrite(new URL("/access-denied", request.url), { status: 403, request });
    for (const cookie of response().cookies.getAll()) denied.cookies.set(cookie);
    return denied;
  }
  // The page asked for rides along, so the approval can lead back to it (docs/decisions/054).
  if (!approved)
    return redirectKeepingCookies(new URL(pendingApprovalPath(pageAddressOf(request.nextUrl)), request.url));
  // Admins work at aal2 only: the first visit sets up an authenticator app, later sign-ins give its code.
  if (isAdminPath(path) && claims.aal !== "aal2")
    return redirectKeepingCookies(new URL(twoStepPath(path + request.nextUrl.search), request.url));
  return response();
}

export const config = {
  // Everything but static files and images, Vercel's own paths (/_vercel: its edge answers them, and on another host
  // they hold nothing of the site's), and the cached public pages that anyone may see, signed in
  // or not, approved or not (/, /competitions, /competitions-demo, /winners, /docs, /blog and below, the docs
  // search index: lib/auth/paths.ts exempts them all): there is nothing to guard there, and the personal parts
  // of those pages ask /api, where the session is refreshed. The cached pages an unapproved account is sent
  // away from (/pricing, /labspinner, /offline) are matched only when the request carries a session cookie
  // (lib/auth/session-cookie.ts): without one there is no account to check, and the proxy would only pass it
  // on. Route handlers under /api are matched so their sessions refresh, and decide access themselves.
  matcher: [
    // Every server action, wherever it is posted (the cached pages' own actions too): see above.
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
    // Every post from a browser (it sends Origin), so a no-JS form post to a cached page is checked too,
    // and every path with a percent-escape, so a malformed one never reaches Next's route matcher.
    { source: "/:path*", has: [{ type: "header", key: "origin" }] },
    "/(.*%.*)",
    // A doc, blog post or competition asked for by what may be a crawler (a coarse filter on the user agent, or
    // none): lib/http/bot-not-found.ts decides with the full list, and answers one that does not exist with a bare
    // 404. People's requests for these cached pages never reach the proxy.
    {
      source: "/(competitions|docs|blog)/:path*",
      has: [
        {
          type: "header",
          key: "user-agent",
          value:
            ".*(?:[Bb]ot|BOT|[Cc]rawl|[Ss]pider|[Ss]lurp|[Pp]review|facebookexternalhit|[Ff]etch|[Ss]crap|curl|[Ww]get|[Pp]ython|[Hh]ttp|[Jj]ava|WhatsApp|Telegram|Discord|Slack|Skype|LinkedIn|Twitter|[Ee]mbed).*",
        },
      ],
    },
    { source: "/(competitions|docs|blog)/:path*", missing: [{ type: "header", key: "user-agent" }] },
    {
      source: "/(pricing|labspinner|offline)",
      has: [{ type: "header", key: "cookie", value: "(?:.*;\\s*)?sb-[^=;]+-auth-token(?:\\.\\d+)?=.*" }],
    },
    // Each cached page also in the forms a host may route its client navigations and prefetches by (Next adds
    // `.rsc` and `.segments/…` to every source; `/` is `index.rsc`), so those skip the proxy too.
    "/((?!(?:competitions|competitions-demo|winners|transparency|charities|docs|blog|search\\.json|pricing|labspinner|offline)?(?:$|\\.rsc$|\\.segments/)|index(?:\\.rsc$|\\.segments/)|(?:competitions|winners|docs|blog)/|_next/static|_next/image|_vercel/|favicon.ico|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|txt|xml|webmanifest)$).*)",
  ],
};
