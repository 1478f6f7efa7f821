import "server-only";
import { complaintStatusSchema, filledComplaint, type ComplaintStatus } from "./complaints";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// The admin complaints queue (code of practice 1.2): admin_list_complaints and admin_update_complaint
// (supabase/migrations/*_fair_play.sql), admin_get_complaint (*_admin_settings.sql). SQL works out the deadlines
// and the overdue flag; these only parse them.

/** The queue's fields SQL always fills (public.admin_complaint): a complaint's, and whether it is overdue. */
const filledAdminComplaint = [...filledComplaint, "overdue"] as const;

/** Every complaint (or those in one status), open ones first by answer deadline. */
export const listAdminComplaints = (status: ComplaintStatus | null) =>
  callRpc("admin_list_complaints", { p_status: status }, declared(...filledAdminComplaint));
/** A complaint in the queue; `overdue`: past a deadline and not yet resolved. */
export type AdminComplaint = Awaited<ReturnType<typeof listAdminComplaints>>[number];

/** One complaint with who handled it; complaint_not_found for an unknown id. */
export const getAdminComplaint = (id: string) =>
  callRpc("admin_get_complaint", { p_id: id }, declared(...filledAdminComplaint));

/** Acknowledges a complaint, or resolves it with the final answer (mailed to the player; audited). */
export const updateAdminComplaint = (id: string, status: "acknowledged" | "resolved", response: string | null) =>
  callRpc(
    "admin_update_complaint",
    { p_id: id, p_status: status, p_response: response },
    declared(...filledAdminComplaint),
  );

export { complaintStatusSchema, type ComplaintStatus };
