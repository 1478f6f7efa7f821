import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { DB_ERROR_CODES, type DbErrorCode } from "./errors";

// The shapes the top-up RPCs return (supabase/migrations/20261123110000_payments_and_play.sql).
// Pure (no session), like account-schema.ts: the webhook path and its tests use them with their
// own client. numeric values arrive as JSON numbers; every amount here was worked out in SQL.

const money = z.coerce.number();
const timestamp = z.string();
/** A code from the SQL (lib/data/errors.ts), or 'unexpected' for one this build does not know. */
const code = z
  .string()
  .transform((c): DbErrorCode =>
    (DB_ERROR_CODES as readonly string[]).includes(c) ? (c as DbErrorCode) : "unexpected",
  );

export const refusalSchema = z.object({ code, message: z.string() });
export type Refusal = z.infer<typeof refusalSchema>;

export const topUpStatusSchema = z.enum(ENUM_VALUES.top_up_status);
export type TopUpStatus = z.infer<typeof topUpStatusSchema>;

/** quote_top_up: what a top-up of `amount` would land, or why it would be refused (it never raises for an amount). */
export const topUpQuoteSchema = z.object({
  amount: money.nullable(),
  bonus: money.nullable(),
  credit: money.nullable(),
  balance_after: money.nullable(),
  min: money,
  max: money,
  bonus_enabled: z.boolean(),
  monthly_limit: money.nullable(),
  /** null: no limit set. */
  monthly_remaining: money.nullable(),
  refusal: refusalSchema.nullable(),
});
export type TopUpQuote = z.infer<typeof topUpQuoteSchema>;

export const topUpOptionsSchema = z.object({
  min: money,
  max: money,
  quick_picks: z.array(money),
  bonus_enabled: z.boolean(),
  bonus_tiers: z.array(z.object({ from: money, percent: z.coerce.number() })),
  monthly_limit: money.nullable(),
  monthly_remaining: money.nullable(),
  pending_limit: money.nullable(),
  pending_limit_from: timestamp.nullable(),
  needs_limit_prompt: z.boolean(),
  blocked: refusalSchema.nullable(),
});
export type TopUpOptions = z.infer<typeof topUpOptionsSchema>;

export const createdTopUpSchema = z.object({
  id: z.string().uuid(),
  amount: money,
  bonus: money,
  credit: money,
  status: z.literal("pending"),
});
export type CreatedTopUp = z.infer<typeof createdTopUpSchema>;

/** What a top-up is for when it pays for an entry (/payment/competition). */
export const topUpPurposeSchema = z.object({
  competition_id: z.string().uuid(),
  quantity: z.number().int(),
  answer: z.string().nullable().optional(),
});

export const topUpSchema = z.object({
  id: z.string().uuid(),
  status: topUpStatusSchema,
  amount: money,
  bonus: money,
  credit: money,
  funding: z.string().nullable(),
  provider: z.enum(ENUM_VALUES.payment_provider),
  /** The player's balance now. */
  balance: money,
  created_at: timestamp,
  credited_at: timestamp.nullable(),
  /** For refused_card_cap: why the payment was refunded, in SQL's words. */
  refusal_reason: z.string().nullable(),
  purpose: topUpPurposeSchema.nullable(),
  entry: z
    .object({
      entry_id: z.string().uuid(),
      ticket_numbers: z.array(z.number().int()),
      competition_slug: z.string(),
    })
    .nullable(),
  entry_error: refusalSchema.nullable(),
});
export type TopUp = z.infer<typeof topUpSchema>;

export const confirmResultSchema = z.object({
  status: z.enum(["credited", "already_credited", "refund_required", "refunded"]),
  top_up_id: z.string().uuid(),
  balance: money.nullable().optional(),
  message: z.string().nullable().optional(),
});
export type ConfirmResult = z.infer<typeof confirmResultSchema>;
