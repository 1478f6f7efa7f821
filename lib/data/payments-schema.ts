import { z } from "zod";
import { declared, type RpcOutput } from "./rpc";

// How the top-up RPCs' results are read: the declared types' readers (supabase/schemas/42-top-ups-and-refunds.sql)
// and zod for the jsonb results. Pure (no session), like account-schema.ts: the webhook path and its tests use them
// with their own client. numeric values arrive as JSON numbers; every amount here was worked out in SQL.

const money = z.coerce.number();

/** A refusal as SQL declares it (public.refusal): its code and words. */
const refusal = declared("code", "message");

/** quote_top_up: what a top-up of `amount` would land, or why it would be refused (it never raises for an amount). */
export const topUpQuote = declared("min", "max", "bonus_enabled").with({ refusal });
export type TopUpQuote = RpcOutput<"quote_top_up", typeof topUpQuote>;

/** get_top_up_options: what the top-up page needs, and what blocks a top-up now (or null). */
export const topUpOptions = declared(
  "min",
  "max",
  "quick_picks",
  "bonus_enabled",
  "bonus_tiers",
  "needs_limit_prompt",
).with({ bonus_tiers: declared("from", "percent"), blocked: refusal });

export const createdTopUpSchema = z.object({
  id: z.string().uuid(),
  amount: money,
  bonus: money,
  credit: money,
  status: z.literal("pending"),
});
export type CreatedTopUp = z.infer<typeof createdTopUpSchema>;

/**
 * get_top_up: the owner's top-up. `balance` is the player's balance now; `refusal_reason` is why a refused_card_cap
 * payment was refunded, in SQL's words; `purpose` (jsonb: {competition_id, quantity, answer}) is what it pays for.
 */
export const myTopUp = declared("id", "status", "amount", "bonus", "credit", "provider", "balance", "created_at").with({
  entry: declared("entry_id", "ticket_numbers", "competition_slug"),
  entry_error: refusal,
});
export type TopUp = RpcOutput<"get_top_up", typeof myTopUp>;

export const confirmResultSchema = z.object({
  status: z.enum(["credited", "already_credited", "refund_required", "refunded"]),
  top_up_id: z.string().uuid(),
  balance: money.nullable().optional(),
  message: z.string().nullable().optional(),
});
export type ConfirmResult = z.infer<typeof confirmResultSchema>;
