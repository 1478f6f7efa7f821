import { searchRecords } from "@/lib/content/docs";
import { defineRoute } from "@/lib/http/define-route";

// The docs search index, built once at build time from the content collections and fetched by the
// search palette only when it is first opened.
export const dynamic = "force-static";

function get() {
  return Response.json(searchRecords(), {
    headers: { "Cache-Control": "public, max-age=3600, stale-while-revalidate=86400" },
  });
}

export const GET = defineRoute({ kind: "json" }, get);
