// Errors and traces for a deployment, started by instrumentation-node.ts. Both are optional and
// neither is needed locally: OpenTelemetry through @vercel/otel on Vercel or with an OTLP endpoint, and Sentry
// through @sentry/nextjs when SENTRY_DSN is set. Sentry is initialised on the server only, so no page's
// browser code grows; each is imported only when it is switched on.
import type { Env } from "@/lib/env";
import type { ErrorEvent } from "@sentry/nextjs";
import { log, namesSecret, redact } from "./log";
import { newRequestId, requestIdFrom } from "./request-id";

let sentryOn = false;

/** Whether traces are exported at all: on Vercel (its collector), or to the OTLP endpoint given. */
export const tracingWanted = (e: Pick<Env, "VERCEL" | "OTEL_EXPORTER_OTLP_ENDPOINT">): boolean =>
  e.VERCEL || Boolean(e.OTEL_EXPORTER_OTLP_ENDPOINT);

export async function startTelemetry(e: Env): Promise<void> {
  if (tracingWanted(e)) {
    const { registerOTel } = await import("@vercel/otel");
    registerOTel({ serviceName: e.OTEL_SERVICE_NAME });
  }
  if (e.SENTRY_DSN) {
    const Sentry = await import("@sentry/nextjs");
    Sentry.init({
      dsn: e.SENTRY_DSN,
      environment: e.SENTRY_ENVIRONMENT ?? (e.production ? "production" : "development"),
      // Errors only: traces go through OpenTelemetry above. No request bodies, cookies or addresses.
      tracesSampleRate: 0,
      sendDefaultPii: false,
      beforeSend: withoutSecrets,
    });
    sentryOn = true;
  }
  log("info", "server_started", { tracing: tracingWanted(e), sentry: sentryOn });
}

/**
 * What Sentry keeps of a failed request: its method, URL and headers, without cookies, a body or any header named
 * for a secret (cookie, authorization, an API key), and every value scrubbed as a log line is. Sentry's own
 * defaults (`sendDefaultPii: false`) filter cookies by name only and would keep the Cookie header's other values.
 */
export function withoutSecrets(event: ErrorEvent): ErrorEvent {
  if (!event.request) return event;
  const { method, url, query_string, headers } = event.request;
  const kept = headers && Object.fromEntries(Object.entries(headers).filter(([name]) => !namesSecret(name)));
  return { ...event, request: redact({ method, url, query_string, headers: kept }) as ErrorEvent["request"] };
}

type ErrorRequest = { path: string; method: string; headers: Record<string, string | string[] | undefined> };
type ErrorContext = { routerKind: string; routePath: string; routeType: string };

/**
 * Next's onRequestError: one structured line per server error (page, route handler, server action, proxy)
 * with its request id (the error page's reference) and Next's digest, then Sentry when it is on.
 */
export async function reportRequestError(error: unknown, request: ErrorRequest, context: ErrorContext): Promise<void> {
  const digest = (error as { digest?: unknown } | null)?.digest;
  const requestId = requestIdFrom(request.headers) ?? newRequestId();
  log("error", "request_error", {
    request_id: requestId,
    digest: typeof digest === "string" ? digest : undefined,
    method: request.method,
    path: request.path.split("?")[0],
    route: context.routePath,
    route_type: context.routeType,
    error,
  });
  if (sentryOn) {
    const Sentry = await import("@sentry/nextjs");
    // Tagged with the request id the error page shows and the log line carries, so a player's reference finds both.
    Sentry.withScope((scope) => {
      scope.setTag("request_id", requestId);
      Sentry.captureRequestError(error, request, context as Parameters<typeof Sentry.captureRequestError>[2]);
    });
  }
}
