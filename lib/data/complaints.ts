import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { callRpc } from "./server-rpc";

// Complaints (code of practice 1.2; supabase/migrations/*_fair_play.sql). SQL gives each complaint its
// reference (LC-000123) and both deadlines (acknowledged within 2 working days, answered within 28 days).

export const complaintStatusSchema = z.enum(ENUM_VALUES.complaint_status);
export type ComplaintStatus = z.infer<typeof complaintStatusSchema>;

/** What submit_complaint answers. */
export const complaintSchema = z.object({
  id: z.string().uuid(),
  reference: z.string(),
  status: complaintStatusSchema,
  subject: z.string(),
  /** The competition or payment it is about, as the player wrote it. */
  related_reference: z.string().nullable(),
  details: z.string(),
  acknowledge_by: z.string(),
  respond_by: z.string(),
  created_at: z.string(),
});
export type Complaint = z.infer<typeof complaintSchema>;

/** One of the caller's complaints as get_my_complaints lists it. */
export const myComplaintSchema = complaintSchema.extend({
  response: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
});
export type MyComplaint = z.infer<typeof myComplaintSchema>;

/** Records a complaint for the signed-in player and mails them its reference (at most 3 a day: rate_limited). */
export const submitComplaint = (complaint: { subject: string; reference: string | null; details: string }) =>
  callRpc(
    "submit_complaint",
    { p_subject: complaint.subject, p_reference: complaint.reference, p_details: complaint.details },
    complaintSchema,
  );

/** The signed-in player's complaints, with their status, deadlines and our answer once given. */
export const getMyComplaints = () => callRpc("get_my_complaints", {}, z.array(myComplaintSchema));
