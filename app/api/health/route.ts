import { getClaims } from "@/lib/auth/session";
import { authServerUp, deepHealth, opsCheck, type OpsCheck } from "@/lib/data/operations";
import { defineRoute, routeRefusal, type RouteInput } from "@/lib/http/define-route";
import { log } from "@/lib/observability/log";
import { requestIdFrom } from "@/lib/observability/request-id";

// GET /api/health: what an uptime monitor polls (README "Deploying to Vercel"). Public and cached for a few
// seconds; it says only whether each part works (database, auth server, mail, the scheduled job and when it
// last ran), never a version, key, address or count. 503 when a part that needs someone now is down: the
// database, the auth server, or the scheduled job (draws go overdue without it). Failing mail is reported but
// answers 200: the site still works and the System page has the detail.
//
// GET /api/health?deep=1 adds queue lengths and the oldest overdue items, for a signed-in super admin only
// (SQL checks: admin_deep_health). The check also raises operations alerts (ops_check), so a monitor calling
// this is what notices a stopped job.
export const dynamic = "force-dynamic";

type State = "ok" | "down";

async function database(): Promise<{ state: State; ops: OpsCheck | null }> {
  try {
    return { state: "ok", ops: await opsCheck() };
  } catch (e) {
    log("error", "health_database_down", { error: e });
    return { state: "down", ops: null };
  }
}

async function get({ request }: RouteInput<undefined, undefined>) {
  const deep = new URL(request.url).searchParams.has("deep");
  const [db, auth] = await Promise.all([database(), authServerUp()]);
  const cron = db.ops?.cron ?? { state: "unknown" as const, last_run_at: null };
  const healthy = db.state === "ok" && auth && cron.state !== "stale" && cron.state !== "failing";
  const body: Record<string, unknown> = {
    status: healthy ? (db.ops?.mail === "failing" ? "degraded" : "ok") : "down",
    checks: {
      database: db.state,
      auth: auth ? "ok" : "down",
      mail: db.ops?.mail ?? "unknown",
      cron,
    },
    time: new Date().toISOString(),
  };
  if (!healthy) log("warn", "health_not_ok", { request_id: requestIdFrom(request.headers), ...body });

  if (deep) {
    // Signed out: the function is not even executable by anon, so ask who is calling first. A signed-in caller
    // who is not a super admin is refused by SQL, which defineRoute answers 403.
    if (!(await getClaims())) return routeRefusal(401, "User not authenticated");
    body.deep = await deepHealth();
    return Response.json(body, { status: healthy ? 200 : 503, headers: { "Cache-Control": "private, no-store" } });
  }
  return Response.json(body, {
    status: healthy ? 200 : 503,
    // A few seconds at the CDN spares the database a monitor's (or a crowd's) every request; a failure is never
    // kept, so recovery shows at once.
    headers: { "Cache-Control": healthy ? "public, max-age=5, s-maxage=5" : "no-store" },
  });
}

export const GET = defineRoute({ kind: "json", auth: "public" }, get);
