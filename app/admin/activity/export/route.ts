import { NextResponse, type NextRequest } from "next/server";
import { parseActivityQuery } from "@/components/admin/activity-filters";
import { getAccount, isAdmin } from "@/lib/auth/session";
import { activityCsvChunks } from "@/lib/data/admin-console";
import { DbError } from "@/lib/data/errors";
import { createClient } from "@/lib/supabase/server";

// The activity log as CSV, for the filter of the page it was asked from. The rows are built in SQL
// (admin_activity_csv) in chunks, streamed as they come, so a long log never sits in memory whole.
// The proxy has answered non-admins already; this checks again, and the SQL a third time.

const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" });

const refusal = (status: number, statusMessage: string) =>
  NextResponse.json({ statusCode: status, statusMessage }, { status });

export async function GET(request: NextRequest) {
  const account = await getAccount();
  if (!account) return refusal(401, "User not authenticated");
  if (!isAdmin(account)) return refusal(403, "Access denied: Admin privileges required");

  const { query } = parseActivityQuery(Object.fromEntries(request.nextUrl.searchParams));
  // The client is made while the request's cookies are at hand; the stream keeps using it.
  const chunks = activityCsvChunks(await createClient(), query);
  // The first chunk is read before answering, so a refusal is a status code rather than a broken file.
  let first: IteratorResult<string>;
  try {
    first = await chunks.next();
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    const status =
      e.code === "not_authenticated" ? 401 : e.code === "admin_required" ? 403 : e.code === "invalid_input" ? 400 : 500;
    return refusal(status, e.message);
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (!first.done) controller.enqueue(encoder.encode(first.value));
      if (first.done) controller.close();
    },
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new NextResponse(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="labcash-activity-${today.format(new Date())}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
