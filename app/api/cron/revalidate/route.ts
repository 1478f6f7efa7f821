import { revalidateCompetitionPages } from "@/lib/cache/public-pages";
import { refuseWithoutCronSecret } from "@/lib/http/cron-auth";

// For changes made in the database behind the app's back (SQL run by hand, a database webhook after
// a scheduled job, the e2e tests' direct RPCs): the cached public pages are regenerated on their next
// visit instead of within their few seconds. Same secret as the cron.
export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  const refused = refuseWithoutCronSecret(request);
  if (refused) return refused;
  revalidateCompetitionPages();
  return Response.json({ ok: true });
}
