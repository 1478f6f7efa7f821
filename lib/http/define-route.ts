import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { sessionRefusal } from "@/lib/auth/calling-policy";
import { getAccount, getClaims, getSessionFacts, isAdmin } from "@/lib/auth/session";
import { DbError, type DbErrorCode } from "@/lib/data/errors";
import { refuseWithoutCronSecret } from "@/lib/http/cron-auth";
import { handleErrors, type RouteKind } from "@/lib/http/route-handler";

// The one way to write a route handler (the twin of defineAction for server actions; Dub's withWorkspace):
// who may call it, its route parameters and query parsed with zod, the database's refusals as statuses, and
// any other fault through handleErrors (JSON or the error page, never Next's empty 500). Every app/**/route.ts
// exports its methods through it (tests/unit/route-handlers.test.ts).

/**
 * Who may call: anyone; a signed-in visitor (a valid token); an admin with a live two-step (aal2) session,
 * confirmed with the auth server as admin actions are; or a scheduler holding CRON_SECRET.
 */
export type RouteAuth = "public" | "user" | "admin" | "cron";

/** A refusal as the site's routes answer one (spec §7: `{ statusCode, statusMessage }`). */
export const routeRefusal = (status: number, statusMessage: string) =>
  NextResponse.json({ statusCode: status, statusMessage }, { status });

/** The database's refusals every route answers the same way; a route adds its own in `errors`. */
const DB_ERROR_STATUS: Partial<Record<DbErrorCode, number>> = {
  not_authenticated: 401,
  admin_required: 403,
  super_admin_required: 403,
  aal2_required: 403,
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };

export type RouteInput<P, Q> = { request: Request; params: P; query: Q };

export type RouteOptions<P, Q> = {
  /** Who reads a fault: code (JSON) or a person in a browser (the error page). */
  kind: RouteKind;
  auth?: RouteAuth;
  /** The route's parameters; a value that does not parse is a 404 with `notFound`. */
  params?: z.ZodType<P>;
  notFound?: string;
  /** The query string (one value per name); one that does not parse is a 400 with its first message. */
  query?: z.ZodType<Q>;
  /** DbError codes (thrown by the handler) to answer as a refusal with this status and SQL's message. */
  errors?: Partial<Record<DbErrorCode, number>>;
};

/** A caller who may not use an `auth` route: the refusal, or null when they may. */
async function refusal(auth: RouteAuth, request: Request): Promise<Response | null> {
  switch (auth) {
    case "public":
      return null;
    case "cron":
      return refuseWithoutCronSecret(request);
    case "user":
      return (await getClaims()) ? null : routeRefusal(401, "User not authenticated");
    case "admin": {
      const account = await getAccount();
      if (!account) return routeRefusal(401, "User not authenticated");
      if (!isAdmin(account)) return routeRefusal(403, "Access denied: Admin privileges required");
      const refused = sessionRefusal("admin", await getSessionFacts());
      return refused ? routeRefusal(refused.code === "not_authenticated" ? 401 : 403, refused.error) : null;
    }
  }
}

/** The statuses `errors` adds to the shared ones, for a route that maps the database's codes itself. */
export const dbErrorStatus = (errors: Partial<Record<DbErrorCode, number>> = {}) => ({ ...DB_ERROR_STATUS, ...errors });

export function defineRoute<P = undefined, Q = undefined>(
  options: RouteOptions<P, Q>,
  handler: (input: RouteInput<P, Q>) => Response | Promise<Response>,
): (request: Request, context: RouteContext) => Promise<Response> {
  const statusOf = dbErrorStatus(options.errors);
  return handleErrors(options.kind, async (request: Request, context: RouteContext) => {
    const refused = await refusal(options.auth ?? "public", request);
    if (refused) return refused;

    let params = undefined as P;
    if (options.params) {
      const parsed = options.params.safeParse(await context.params);
      if (!parsed.success) return routeRefusal(404, options.notFound ?? "Not found");
      params = parsed.data;
    }
    let query = undefined as Q;
    if (options.query) {
      const parsed = options.query.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      if (!parsed.success) return routeRefusal(400, parsed.error.issues[0]?.message ?? "Invalid request");
      query = parsed.data;
    }

    try {
      return await handler({ request, params, query });
    } catch (e) {
      const status = e instanceof DbError ? statusOf[e.code] : undefined;
      if (e instanceof DbError && status) return routeRefusal(status, e.message);
      throw e;
    }
  });
}
