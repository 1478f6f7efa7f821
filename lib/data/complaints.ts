import "server-only";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// Complaints (code of practice 1.2; supabase/migrations/*_fair_play.sql). SQL gives each complaint its
// reference (LC-000123) and both deadlines (acknowledged within 2 working days, answered within 28 days).

export const complaintStatusSchema = z.enum(ENUM_VALUES.complaint_status);
export type ComplaintStatus = z.infer<typeof complaintStatusSchema>;

/** The fields of a complaint SQL always fills (public.complaint); the rest may be null. */
export const filledComplaint = [
  "id",
  "reference",
  "status",
  "subject",
  "details",
  "acknowledge_by",
  "respond_by",
  "created_at",
] as const;

/** Records a complaint for the signed-in player and mails them its reference (at most 3 a day: rate_limited). */
export const submitComplaint = (complaint: { subject: string; reference: string | null; details: string }) =>
  callRpc(
    "submit_complaint",
    { p_subject: complaint.subject, p_reference: complaint.reference, p_details: complaint.details },
    declared(...filledComplaint),
  );
export type Complaint = Awaited<ReturnType<typeof submitComplaint>>;

/** The signed-in player's complaints, with their status, deadlines and our answer once given. */
export const getMyComplaints = () => callRpc("get_my_complaints", {}, declared(...filledComplaint));
export type MyComplaint = Awaited<ReturnType<typeof getMyComplaints>>[number];
