import "server-only";
import { NextResponse } from "next/server";
import { sessionRefusal } from "@/lib/actions/action";
import { getAccount, getSessionFacts, isAdmin } from "@/lib/auth/session";
import { DbError, type DbErrorCode } from "@/lib/data/errors";

// The admin CSV downloads (the activity log, a competition's entries): the same guard and the
// same streaming, in one place. The proxy has answered non-admins already; these check again, and
// the SQL a third time.

/** A refusal in the shape the admin routes answer with. */
export const csvRefusal = (status: number, statusMessage: string) =>
  NextResponse.json({ statusCode: status, statusMessage }, { status });

/** A refusal for a caller who is not an admin with a live aal2 session, or null for one who is. */
export async function refuseNonAdmin(): Promise<Response | null> {
  const account = await getAccount();
  if (!account) return csvRefusal(401, "User not authenticated");
  if (!isAdmin(account)) return csvRefusal(403, "Access denied: Admin privileges required");
  const refused = sessionRefusal("admin", await getSessionFacts());
  if (refused) return csvRefusal(refused.code === "not_authenticated" ? 401 : 403, refused.error);
  return null;
}

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
    const status = { not_authenticated: 401, admin_required: 403, aal2_required: 403, ...statusOf }[e.code] ?? 500;
    return csvRefusal(status, e.message);
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
