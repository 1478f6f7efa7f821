import { NextResponse, type NextRequest } from "next/server";
import { getAccount, isAdmin } from "@/lib/auth/session";
import { adminEntriesCsvChunks } from "@/lib/data/admin-competitions";
import { DbError } from "@/lib/data/errors";
import { createClient } from "@/lib/supabase/server";

// A competition's entries as CSV for admins: one line per order or postal entry with the buyer's name and
// e-mail and the postal address (admin_competition_entries_csv). Served here rather than by linking the public
// ticket-list and entrants CSVs, because those open only once online sales end, never for a cancelled
// competition, and deliberately name nobody; an admin needs every entry, in any state, with who to contact.
// The proxy has answered non-admins already; this checks again, and the SQL a third time.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const refusal = (status: number, statusMessage: string) =>
  NextResponse.json({ statusCode: status, statusMessage }, { status });

export async function GET(_request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const account = await getAccount();
  if (!account) return refusal(401, "User not authenticated");
  if (!isAdmin(account)) return refusal(403, "Access denied: Admin privileges required");
  const { id } = await params;
  if (!UUID.test(id)) return refusal(404, "Competition not found");

  const chunks = adminEntriesCsvChunks(await createClient(), id);
  // The first chunk is read before answering, so a refusal is a status code rather than a broken file.
  let first: IteratorResult<string>;
  try {
    first = await chunks.next();
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    const status =
      e.code === "not_authenticated"
        ? 401
        : e.code === "admin_required"
          ? 403
          : e.code === "competition_not_found"
            ? 404
            : 500;
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
      "Content-Disposition": `attachment; filename="labcash-entries-${id}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
