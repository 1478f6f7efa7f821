import "server-only";
import { z } from "zod";
import { callRpcWith, declared, type RpcClient, type RpcOutput } from "./rpc";
import { callRpc } from "./server-rpc";

// The admin console's reads: the dashboard's figures and the activity log. Admins only;
// the SQL checks (private.require_admin) and computes every figure.

/**
 * Every figure of /admin in one call (admin_dashboard): `from` and `to` are the first and last Europe/London day of
 * the series (YYYY-MM-DD), today last. Counts: live_competitions is open for online entries now, as the public
 * site's "Live now" (private.competition_phase); opening_soon published, not open yet; awaiting_draw online sales
 * ended, not drawn yet; flagged_players players with a protection flag awaiting review. Each day's credit_sold is
 * the pounds of credit bought (top-ups; bonus not included).
 */
export const getAdminDashboard = () =>
  callRpc(
    "admin_dashboard",
    {},
    declared("generated_at", "from", "to", "counts", "days", "totals").with({
      counts: declared(
        "players",
        "approved_players",
        "pending_approvals",
        "live_competitions",
        "opening_soon",
        "awaiting_draw",
        "open_complaints",
        "overdue_complaints",
        "flagged_players",
      ),
      days: declared("day", "signups", "tickets", "credit_sold"),
      totals: declared("signups", "tickets", "credit_sold"),
    }),
  );
export type DashboardDay = Awaited<ReturnType<typeof getAdminDashboard>>["days"][number];

export const ACTIVITY_SUBJECT_KINDS = ["user", "competition", "draw", "top_up", "complaint"] as const;

/** The jsonb and open-text parts of an activity row, read with zod: the subject's kind (one of five) and the details. */
const activityRowParts = z.object({
  subject_kind: z.enum(ACTIVITY_SUBJECT_KINDS).nullable(),
  details: z.record(z.string(), z.unknown()),
});

/** The activity screen's filters, as admin_list_activity and admin_activity_csv take them. */
export type ActivityFilter = {
  actor: string | null;
  kind: string | null;
  subject: string | null;
  /** Europe/London days, YYYY-MM-DD, inclusive. */
  from: string | null;
  to: string | null;
};

const filterArgs = (filter: ActivityFilter) => ({
  p_actor: filter.actor,
  p_kind: filter.kind,
  p_subject: filter.subject,
  p_from: filter.from,
  p_to: filter.to,
});

/**
 * One page of the activity log, newest first, older than `before`; `next_before` is the cursor of the next (older)
 * page or null on the oldest; `kinds` is every action recorded so far, for the kind filter.
 */
export const listActivity = async (filter: ActivityFilter, before: number | null, limit: number) => {
  const page = await callRpc(
    "admin_list_activity",
    { ...filterArgs(filter), p_before: before, p_limit: limit },
    declared("rows", "kinds").with({ rows: declared("id", "created_at", "action", "details") }),
  );
  return { ...page, rows: page.rows.map((row) => ({ ...row, ...activityRowParts.parse(row) })) };
};
export type ActivityRow = Awaited<ReturnType<typeof listActivity>>["rows"][number];

/** A chunk always has its lines and says whether it is the last; next_before is null on the last. */
const activityCsvChunk = declared("csv", "done");
type ActivityCsvChunk = RpcOutput<"admin_activity_csv", typeof activityCsvChunk>;

/**
 * The CSV of the whole filter, chunk by chunk (admin_activity_csv; the header comes with the first).
 * Takes its client so a streamed response can keep reading after the handler has returned.
 */
export async function* activityCsvChunks(client: RpcClient, filter: ActivityFilter): AsyncGenerator<string> {
  let before: number | null = null;
  for (;;) {
    // Annotated: `before` is set from the chunk, so TypeScript cannot infer the chunk's type from the call.
    const chunk: ActivityCsvChunk = await callRpcWith(
      client,
      "admin_activity_csv",
      { ...filterArgs(filter), p_before: before, p_limit: 5000 },
      activityCsvChunk,
    );
    yield chunk.csv;
    if (chunk.done || chunk.next_before === null) return;
    before = chunk.next_before;
  }
}
