import "server-only";
import { noResult } from "./rpc";
import { createdTopUpSchema, myTopUp, topUpOptions, topUpQuote, type TopUp } from "./payments-schema";
import { DbError } from "./errors";
import { callRpc } from "./server-rpc";

// The player's side of top-ups, as the signed-in visitor (cookie session). The service-role side
// (confirm, fail, refund, attach) is lib/payments/confirm.ts.

export const getTopUpOptions = () => callRpc("get_top_up_options", {}, topUpOptions);

/** What a top-up of `amount` would land, or why it would be refused (decided in SQL; never throws for an amount). */
export const quoteTopUp = (amount: number) => callRpc("quote_top_up", { p_amount: amount }, topUpQuote);

export const createTopUp = (
  amount: number,
  provider: "stripe" | "test",
  purpose: { competition_id: string; quantity: number; answer: string | null } | null = null,
) => callRpc("create_top_up", { p_amount: amount, p_provider: provider, p_purpose: purpose }, createdTopUpSchema);

/** The caller's own top-up, or null (someone else's reads as not found, like one that does not exist). */
export async function getTopUp(id: string): Promise<TopUp | null> {
  try {
    return await callRpc("get_top_up", { p_id: id }, myTopUp);
  } catch (e) {
    if (e instanceof DbError && (e.code === "top_up_not_found" || e.code === "invalid_input")) return null;
    throw e;
  }
}

export const dismissLimitPrompt = () => callRpc("dismiss_limit_prompt", {}, noResult);
