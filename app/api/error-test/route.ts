import { env } from "@/lib/env";
import { defineRoute } from "@/lib/http/define-route";

// The route-handler twin of /error-test: it always fails on the server, so the tests keep what a fault
// answers (handleErrors' JSON error, never an empty 500). Not in a deployment: there it is not found.
export const dynamic = "force-dynamic";

export const GET = defineRoute({ kind: "json" }, async () => {
  if (env().production) return new Response(null, { status: 404 });
  throw new Error("Route error test: this route always fails on the server");
});
