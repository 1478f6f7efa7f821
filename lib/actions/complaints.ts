"use server";

import { refresh } from "next/cache";
import { complaintFormSchema } from "@/lib/complaints/complaint-rules";
import { submitComplaint, type Complaint } from "@/lib/data/complaints";
import { defineAction } from "./define-action";
import { ok, type ActionResult } from "./result";

/**
 * A signed-in player's complaint (any account, approved or not: complaining is never restricted). SQL gives the
 * reference and the deadlines and mails the confirmation; more than 3 in a day is refused with `rate_limited`.
 */
export const submitComplaintAction = defineAction(
  { schema: complaintFormSchema, role: "user" },
  async (complaint): Promise<ActionResult<Complaint>> => {
    const saved = await submitComplaint(complaint);
    refresh();
    return ok(saved, `Your reference is ${saved.reference}`);
  },
);
