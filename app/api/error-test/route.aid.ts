import { defineRoute } from "@/lib/http/define-route";

// The route-handler twin of /error-test: it always fails on the server, so the tests keep what a fault
// answers (handleErrors' JSON error, never an empty 500). A test aid (lib/test-aids.ts): not in a deployment's
// build.
export const dynamic = "force-dynamic";

export const GET = defineRoute({ kind: "json" }, async () => {
  throw new Error("Route error test: this route always fails on the server");
});
