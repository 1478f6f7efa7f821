import "server-only";
import { cache } from "react";
import { z } from "zod";
import { ENUM_VALUES } from "@/lib/labels";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// The player's own responsible-play protections (code of practice 1.4, 1.5, 1.8): a monthly limit,
// a break, self-exclusion or closure. SQL decides and enforces all of it; this file reads and asks.

const amount = z.coerce.number();

/** The protections nested in admin_get_user's jsonb (the player's own calls return the declared type). */
export const protectionsSchema = z.object({
  /** The limit in force this month (pounds); null for no limit. */
  monthly_limit: amount.nullable(),
  /** A higher limit (or, when null with a date, no limit) waiting for its cooling-off to end. */
  pending_limit: amount.nullable(),
  pending_limit_from: z.string().nullable(),
  /** What the limit counts: credited this month plus checkouts still open. Not shown as money put in. */
  month_topped_up: amount,
  /** Money paid and credited from top-ups this month, less refunds. */
  month_credited: amount,
  /** Money in checkouts still open: held against the limit, released if not paid. */
  month_held: amount,
  month_spent: amount,
  /** What the limit still allows this month; null with no limit. */
  monthly_remaining: amount.nullable(),
  state: z.enum(ENUM_VALUES.protection_state),
  break_until: z.string().nullable(),
  closed_at: z.string().nullable(),
  limit_increase_delay_hours: amount,
});

/** What public.protections always fills: this month's figures, the state and the cooling-off. */
const protections = declared(
  "month_topped_up",
  "month_credited",
  "month_held",
  "month_spent",
  "state",
  "limit_increase_delay_hours",
);

/** The signed-in player's protections. Cached per request: the header and the page share one call. */
export const getMyProtections = cache(() => callRpc("get_my_protections", {}, protections));
export type Protections = Awaited<ReturnType<typeof getMyProtections>>;
export type ProtectionState = Protections["state"];

/** A new monthly limit in pounds (null = no limit). A decrease applies at once, an increase after the cooling-off. */
export const setMonthlyLimit = (limit: number | null) => callRpc("set_monthly_limit", { p_limit: limit }, protections);

/** A break ('1 week' | '1 month' | '3 months') from top-ups, entries, spins and marketing mail; it cannot be ended early. */
export const takeBreak = (period: string) => callRpc("take_break", { p_period: period }, protections);

/** Self-exclusion for `months` (6 or more); it cannot be ended early. */
export const selfExclude = (months: number) => callRpc("self_exclude", { p_months: months }, protections);

/** Closes the account for good: sign-in and history stay, nothing else does. */
export const closeAccount = () => callRpc("close_account", {}, protections);
