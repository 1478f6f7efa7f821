// The one route-handler wrapper (lib/http/define-route.ts) on its own: parameters and query parsed with zod,
// the database's refusals as statuses, a scheduler's secret checked, and any other fault answered as the site's
// error with the request's id. The sign-in kinds ("user", "admin") read the session from Next's request scope and
// are tested through the routes that use them (contract and e2e suites).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { DbError } from "@/lib/data/errors";
import { defineRoute } from "@/lib/http/define-route";
import { INTERNAL_ERROR_BODY } from "@/lib/http/route-handler";
import { EMBEDDED_CRON_SECRET } from "@/lib/env";

const context = (params: Record<string, string> = {}) => ({ params: Promise.resolve(params) });
const get = (url: string, headers: Record<string, string> = {}) => new Request(`http://localhost${url}`, { headers });

// A fault is logged as one JSON line on stderr (lib/observability/log.ts): kept here to be read.
let errorLines: string[] = [];
beforeEach(() => {
  errorLines = [];
  vi.spyOn(console, "error").mockImplementation((line: string) => void errorLines.push(line));
});
afterEach(() => vi.restoreAllMocks());

describe("defineRoute", () => {
  const echo = defineRoute(
    {
      kind: "json",
      params: z.object({ slug: z.string().regex(/^[a-z-]+$/) }),
      notFound: "Competition not found",
      query: z.object({ page: z.coerce.number().int().min(1, "Page must be 1 or more").default(1) }),
    },
    ({ params, query }) => Response.json({ slug: params.slug, page: query.page }),
  );

  it("hands the handler its parsed parameters and query", async () => {
    const response = await echo(get("/x?page=3"), context({ slug: "iphone" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ slug: "iphone", page: 3 });
  });

  it("answers parameters that do not parse with 404 and the route's words", async () => {
    const response = await echo(get("/x"), context({ slug: "Not A Slug" }));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ statusCode: 404, statusMessage: "Competition not found" });
  });

  it("answers a query that does not parse with 400 and its first message", async () => {
    const response = await echo(get("/x?page=0"), context({ slug: "iphone" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, statusMessage: "Page must be 1 or more" });
  });

  it("answers the database's shared refusals and the route's own with their statuses and SQL's words", async () => {
    const refusing = (error: DbError) =>
      defineRoute({ kind: "json", errors: { competition_not_found: 404 } }, () => {
        throw error;
      });
    const unauthenticated = await refusing(new DbError("not_authenticated", "Sign in first"))(get("/x"), context());
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({ statusCode: 401, statusMessage: "Sign in first" });
    const missing = await refusing(new DbError("competition_not_found", "No such competition"))(get("/x"), context());
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ statusCode: 404, statusMessage: "No such competition" });
  });

  it("answers any other fault as the site's error, referenced by the request's id, never in the fault's words", async () => {
    const failing = (kind: "json" | "html") =>
      defineRoute({ kind }, () => {
        throw new DbError("invalid_input", "secret internals");
      });
    const headers = { "x-request-id": "req-12345678" };
    const json = await failing("json")(get("/x", headers), context());
    expect(json.status).toBe(500);
    expect(json.headers.get("cache-control")).toBe("private, no-store");
    expect(await json.json()).toEqual({ ...INTERNAL_ERROR_BODY, reference: "req-12345678" });
    const html = await failing("html")(get("/x", headers), context());
    expect(html.status).toBe(500);
    const page = await html.text();
    expect(page).toContain("Reference: req-12345678");
    expect(page).not.toContain("secret internals");
    // Each fault is one log line naming the request, so the reference a player quotes finds it.
    expect(errorLines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ event: "route_handler_failed", request_id: "req-12345678", path: "/x" }),
      expect.objectContaining({ event: "route_handler_failed", request_id: "req-12345678", path: "/x" }),
    ]);
  });

  it("lets a scheduler in only with the cron secret", async () => {
    const cron = defineRoute({ kind: "json", auth: "cron" }, () => Response.json({ ran: true }));
    expect((await cron(get("/api/cron/x"), context())).status).toBe(401);
    expect((await cron(get("/api/cron/x", { authorization: "Bearer wrong" }), context())).status).toBe(401);
    const allowed = await cron(get("/api/cron/x", { authorization: `Bearer ${EMBEDDED_CRON_SECRET}` }), context());
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ ran: true });
  });
});
