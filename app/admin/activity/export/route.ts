import type { NextRequest } from "next/server";
import { parseActivityQuery } from "@/lib/activity/filters";
import { activityCsvChunks } from "@/lib/data/admin-console";
import { refuseNonAdmin, streamAdminCsv } from "@/lib/http/admin-csv";
import { createClient } from "@/lib/supabase/server";
import { handleErrors } from "@/lib/http/route-handler";

// The activity log as CSV, for the filter of the page it was asked from. The rows are built in SQL
// (admin_activity_csv) in chunks and streamed as they come.

const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" });

async function get(request: NextRequest) {
  const refused = await refuseNonAdmin();
  if (refused) return refused;
  const { query } = parseActivityQuery(Object.fromEntries(request.nextUrl.searchParams));
  // The client is made while the request's cookies are at hand; the stream keeps using it.
  const chunks = activityCsvChunks(await createClient(), query);
  return streamAdminCsv(chunks, `labcash-activity-${today.format(new Date())}.csv`, { invalid_input: 400 });
}

export const GET = handleErrors("html", get);
