import { competitionSearchRecord } from "@/lib/competitions/search";
import { requestTime } from "@/lib/competitions/status";
import { listPublicCompetitions } from "@/lib/data/competitions";
import { defineRoute } from "@/lib/http/define-route";

// The search palette's competition index: every published competition's title, prize and state, public
// data read as anon. Cached like the pages that list competitions (regenerated at most every few seconds,
// and at once when the app changes a competition: lib/cache/public-pages.ts), under /competitions, which
// the proxy leaves alone, so any visitor, approved or not, signed in or not, gets the same cached answer.
export const revalidate = 2;

async function get() {
  const now = requestTime();
  const records = (await listPublicCompetitions()).map((c) => competitionSearchRecord(c, now));
  return Response.json(records);
}

export const GET = defineRoute({ kind: "json" }, get);
