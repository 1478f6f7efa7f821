import "server-only";
import { z } from "zod";
import { complaintStatusSchema, myComplaintSchema, type ComplaintStatus } from "./complaints";
import { callRpc } from "./server-rpc";

// The admin complaints queue (code of practice 1.2): admin_list_complaints and admin_update_complaint
// (supabase/migrations/*_fair_play.sql), admin_get_complaint (*_admin_settings.sql). SQL works out the deadlines
// and the overdue flag; these only parse them.

export const adminComplaintSchema = myComplaintSchema.extend({
  user_id: z.string().uuid().nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  /** Past a deadline and not yet resolved (acknowledgement while received, the final answer until resolved). */
  overdue: z.boolean(),
});
export type AdminComplaint = z.infer<typeof adminComplaintSchema>;

/** Every complaint (or those in one status), open ones first by answer deadline. */
export const listAdminComplaints = (status: ComplaintStatus | null) =>
  callRpc("admin_list_complaints", { p_status: status }, z.array(adminComplaintSchema));

/** One complaint with who handled it; complaint_not_found for an unknown id. */
export const getAdminComplaint = (id: string) =>
  callRpc("admin_get_complaint", { p_id: id }, adminComplaintSchema.extend({ handled_by_name: z.string().nullable() }));

/** Acknowledges a complaint, or resolves it with the final answer (mailed to the player; audited). */
export const updateAdminComplaint = (id: string, status: "acknowledged" | "resolved", response: string | null) =>
  callRpc("admin_update_complaint", { p_id: id, p_status: status, p_response: response }, adminComplaintSchema);

export { complaintStatusSchema, type ComplaintStatus };
