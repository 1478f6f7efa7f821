import "server-only";
import { NextResponse } from "next/server";
import { DbError, type DbErrorCode } from "@/lib/data/errors";
import { dbErrorStatus, routeRefusal } from "@/lib/http/define-route";

// The admin CSV downloads (the activity log, a competition's entries) stream the same way, in one place.
// Their guard is defineRoute's `auth: "admin"` (the proxy has answered non-admins already; the SQL checks a
// third time).

/**
 * Streams CSV chunks as they come from SQL, so a long file never sits in memory whole. The first
 * chunk is read before answering, so a refusal is a status code (from `statusOf` the database's
 * code) rather than a broken file.
 */
export async function streamAdminCsv(
  chunks: AsyncGenerator<string>,
  filename: string,
  statusOf: Partial<Record<DbErrorCode, number>>,
): Promise<Response> {
  let first: IteratorResult<string>;
  try {
    first = await chunks.next();
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    return routeRefusal(dbErrorStatus(statusOf)[e.code] ?? 500, e.message);
  }
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close();
      else controller.enqueue(encoder.encode(first.value));
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
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
