import "server-only";
import { z } from "zod";
import { callRpcWith, type RpcClient } from "./rpc";
import { callRpc } from "./server-rpc";

// The admin console's reads (issue 11): the dashboard's figures and the activity log. Admins only;
// the SQL checks (private.require_admin) and computes every figure.

const count = z.number().int().nonnegative();

const dashboardSchema = z.object({
  generated_at: z.string(),
  /** The first and last Europe/London day of the series (YYYY-MM-DD), today last. */
  from: z.string(),
  to: z.string(),
  counts: z.object({
    players: count,
    approved_players: count,
    pending_approvals: count,
    /** Open for online entries now, as the public site's "Live now" (private.competition_phase). */
    live_competitions: count,
    /** Published, not open yet ("Opening soon"). */
    opening_soon: count,
    /** Online sales ended, not drawn yet (postal window or waiting for the draw). */
    awaiting_draw: count,
    open_complaints: count,
    overdue_complaints: count,
    /** Players with a player-protection flag awaiting review. */
    flagged_players: count,
  }),
  days: z.array(
    z.object({
      day: z.string(),
      signups: count,
      tickets: count,
      /** Pounds of credit bought that day (top-ups; bonus not included). */
      credit_sold: z.number(),
    }),
  ),
  totals: z.object({ signups: count, tickets: count, credit_sold: z.number() }),
});
export type AdminDashboard = z.infer<typeof dashboardSchema>;
export type DashboardDay = AdminDashboard["days"][number];

/** Every figure of /admin in one call (admin_dashboard). */
export const getAdminDashboard = (): Promise<AdminDashboard> => callRpc("admin_dashboard", {}, dashboardSchema);

export const ACTIVITY_SUBJECT_KINDS = ["user", "competition", "draw", "top_up", "complaint"] as const;

const activityRowSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  action: z.string(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  actor_email: z.string().nullable(),
  subject_id: z.string().nullable(),
  subject_kind: z.enum(ACTIVITY_SUBJECT_KINDS).nullable(),
  subject_label: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type ActivityRow = z.infer<typeof activityRowSchema>;

const activityPageSchema = z.object({
  rows: z.array(activityRowSchema),
  /** The cursor of the next (older) page, or null on the oldest. */
  next_before: z.number().int().nullable(),
  /** Every action recorded so far, for the kind filter. */
  kinds: z.array(z.string()),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

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

/** One page of the activity log, newest first, older than `before`. */
export const listActivity = (filter: ActivityFilter, before: number | null, limit: number): Promise<ActivityPage> =>
  callRpc("admin_list_activity", { ...filterArgs(filter), p_before: before, p_limit: limit }, activityPageSchema);

const csvChunkSchema = z.object({ csv: z.string(), next_before: z.number().int().nullable(), done: z.boolean() });

/**
 * The CSV of the whole filter, chunk by chunk (admin_activity_csv; the header comes with the first).
 * Takes its client so a streamed response can keep reading after the handler has returned.
 */
export async function* activityCsvChunks(client: RpcClient, filter: ActivityFilter): AsyncGenerator<string> {
  let before: number | null = null;
  for (;;) {
    const chunk: z.infer<typeof csvChunkSchema> = await callRpcWith(
      client,
      "admin_activity_csv",
      { ...filterArgs(filter), p_before: before, p_limit: 5000 },
      csvChunkSchema,
    );
    yield chunk.csv;
    if (chunk.done || chunk.next_before === null) return;
    before = chunk.next_before;
  }
}
