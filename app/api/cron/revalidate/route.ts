import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { refuseWithoutCronSecret } from "@/lib/http/cron-auth";
import { handleErrors } from "@/lib/http/route-handler";

// For changes made in the database behind the app's back (SQL run by hand, a database webhook after
// a scheduled job, the e2e tests' direct RPCs): the cached public pages are regenerated on their next
// visit instead of within their few seconds. Same secret as the cron.
export const dynamic = "force-dynamic";

async function post(request: Request) {
  const refused = refuseWithoutCronSecret(request);
  if (refused) return refused;
  revalidateCompetitionPages();
  return Response.json({ ok: true });
}

export const POST = handleErrors("json", post);
