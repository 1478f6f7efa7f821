import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { defineRoute } from "@/lib/http/define-route";

// For changes made in the database behind the app's back (SQL run by hand, a database webhook after
// a scheduled job, the e2e tests' direct RPCs): the cached public pages are regenerated on their next
// visit instead of within their few seconds. Same secret as the cron.
export const dynamic = "force-dynamic";

async function post() {
  revalidateCompetitionPages();
  return Response.json({ ok: true });
}

export const POST = defineRoute({ kind: "json", auth: "cron" }, post);
