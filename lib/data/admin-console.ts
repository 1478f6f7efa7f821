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

/** A record an activity row names (public.activity_ref), for its sentence. */
const activityRef = z.object({
  id: z.string(),
  kind: z.enum([...ACTIVITY_SUBJECT_KINDS, "entry", "referral"]),
  name: z.string().nullable(),
  competition_id: z.string().nullable(),
  user_id: z.string().nullable(),
  user_name: z.string().nullable(),
  amount: z.number().nullable(),
  numbers: z.array(z.number()).nullable(),
});
export type ActivityRef = z.output<typeof activityRef>;

/**
 * The jsonb and open-text parts of an activity row, read with zod: the subject's kind (one of five), the details
 * and the records the row names.
 */
const activityRowParts = z.object({
  subject_kind: z.enum(ACTIVITY_SUBJECT_KINDS).nullable(),
  details: z.record(z.string(), z.unknown()),
  refs: z.array(activityRef),
});
type ActivityRowParts = z.output<typeof activityRowParts>;
const activityRowsParsed = <R extends Record<keyof ActivityRowParts, unknown>>(
  rows: R[],
): (Omit<R, keyof ActivityRowParts> & ActivityRowParts)[] =>
  rows.map((row) => ({ ...row, ...activityRowParts.parse(row) }));

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

const activityRowReader = declared("id", "created_at", "action", "details", "refs");

/**
 * One page of the activity log, newest first, older than `before`; `next_before` is the cursor of the next (older)
 * page or null on the oldest; `kinds` is every action recorded so far, for the kind filter.
 */
export const listActivity = async (filter: ActivityFilter, before: number | null, limit: number) => {
  const page = await callRpc(
    "admin_list_activity",
    { ...filterArgs(filter), p_before: before, p_limit: limit },
    declared("rows", "kinds").with({ rows: activityRowReader }),
  );
  return { ...page, rows: activityRowsParsed(page.rows) };
};
export type ActivityRow = Awaited<ReturnType<typeof listActivity>>["rows"][number];

const activityExportChunk = declared("rows").with({ rows: activityRowReader });
type ActivityExportChunk = RpcOutput<"admin_activity_export", typeof activityExportChunk>;

/**
 * The rows of the whole filter, chunk by chunk (admin_activity_export), for the CSV.
 * Takes its client so a streamed response can keep reading after the handler has returned.
 */
export async function* activityExportRows(client: RpcClient, filter: ActivityFilter): AsyncGenerator<ActivityRow[]> {
  let before: number | null = null;
  for (;;) {
    // Annotated: `before` is set from the chunk, so TypeScript cannot infer the chunk's type from the call.
    const chunk: ActivityExportChunk = await callRpcWith(
      client,
      "admin_activity_export",
      { ...filterArgs(filter), p_before: before, p_limit: 2000 },
      activityExportChunk,
    );
    yield activityRowsParsed(chunk.rows);
    if (chunk.next_before === null) return;
    before = chunk.next_before;
  }
}
