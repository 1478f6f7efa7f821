import { defineRoute } from "@/lib/http/define-route";

// Vercel's edge serves the analytics script on a Vercel deployment, and the request never reaches the site. The e2e
// build (the only one with test aids, lib/test-aids.ts) runs with analytics on, so every page view asked the site for
// it and got the not-found page, rendered in full. This answers as a host without Vercel's edge does: not found, with
// no page to render.
export const GET = defineRoute(
  { kind: "json" },
  async () => new Response(null, { status: 404, headers: { "Cache-Control": "no-store" } }),
);
