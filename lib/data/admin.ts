import "server-only";
import { z } from "zod";
import { createClient } from "@/lib/supabase/server";

const pendingSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  created_at: z.string(),
});
export type PendingAccount = z.infer<typeof pendingSchema>;

/** Accounts waiting for approval, oldest first (admins only; the SQL checks). */
export async function listPendingApprovals(): Promise<PendingAccount[]> {
  const supabase = await createClient();
  const { data, error } = await supabase.rpc("admin_list_pending_approvals");
  if (error) throw new Error(error.message);
  return z.array(pendingSchema).parse(data);
}
