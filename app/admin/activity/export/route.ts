import { activityCsv } from "@/lib/activity/csv";
import { parseActivityQuery } from "@/lib/activity/filters";
import { activityExportRows } from "@/lib/data/admin-console";
import { streamAdminCsv } from "@/lib/http/admin-csv";
import { defineRoute } from "@/lib/http/define-route";
import { createClient } from "@/lib/supabase/server";
import { londonDay } from "@/lib/time/london";

// The activity log as CSV, for the filter of the page it was asked from. The rows come from SQL
// (admin_activity_export) in chunks; each chunk is written as CSV, its details as the screen's sentence, and
// streamed as it comes.

export const GET = defineRoute({ kind: "html", auth: "admin" }, async ({ request }) => {
  const { query } = parseActivityQuery(Object.fromEntries(new URL(request.url).searchParams));
  // The client is made while the request's cookies are at hand; the stream keeps using it.
  const chunks = activityCsv(activityExportRows(await createClient(), query));
  return streamAdminCsv(chunks, `labcash-activity-${londonDay()}.csv`, { invalid_input: 400 });
});
