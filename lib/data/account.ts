import "server-only";
import { z } from "zod";
import { createClient } from "@/lib/supabase/server";

const ledgerRowSchema = z.object({
  id: z.coerce.number(),
  kind: z.string(),
  amount: z.coerce.number(),
  balance_after: z.coerce.number(),
  reason: z.string().nullable(),
  reference: z.string().nullable(),
  created_at: z.string(),
});
export type LedgerRow = z.infer<typeof ledgerRowSchema>;

/** The signed-in user's ledger, newest first. */
export async function getMyLedger(limit = 50): Promise<LedgerRow[]> {
  const supabase = await createClient();
  const { data, error } = await supabase.rpc("get_my_ledger", { p_limit: limit });
  if (error) throw new Error(error.message);
  return z.array(ledgerRowSchema).parse(data);
}
