import { docs } from "@/lib/content/docs";
import type { SearchRecord } from "@/lib/search-record";
import { handleErrors } from "@/lib/http/route-handler";

// The docs search index, built once at build time from the content collections and fetched by the
// search palette only when it is first opened.
export const dynamic = "force-static";

function get() {
  const records: SearchRecord[] = docs.filter((d) => d.navigation !== false).flatMap((d) => d.sections);
  return Response.json(records, { headers: { "Cache-Control": "public, max-age=3600, stale-while-revalidate=86400" } });
}

export const GET = handleErrors("json", get);
