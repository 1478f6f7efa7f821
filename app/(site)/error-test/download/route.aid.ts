import { defineRoute } from "@/lib/http/define-route";

// A route a browser navigates to (like a CSV download or an e-mail link) that always fails on the server,
// so the tests keep what a person then meets: the error page, not an empty 500. A test aid (lib/test-aids.ts):
// not in a deployment's build.
export const dynamic = "force-dynamic";

export const GET = defineRoute({ kind: "html" }, async () => {
  throw new Error("Route error test: this download always fails on the server");
});
