import "server-only";
import { cache } from "react";
import { declared } from "./rpc";
import { callRpc } from "./server-rpc";

// The player's own responsible-play protections (code of practice 1.4, 1.5, 1.8): a monthly limit,
// a break, self-exclusion or closure. SQL decides and enforces all of it; this file reads and asks.

/**
 * What public.protections always fills (admin_get_user nests it): this month's figures (month_topped_up is what the
 * limit counts: credited plus checkouts still open, never shown as money put in), the state and the cooling-off.
 * The limit caps top-ups and spending on entries each on its own: top_up_remaining and spend_remaining (SQL's
 * figures) say what is left of each. They and monthly_limit are null without a limit; pending_limit waits for its
 * cooling-off to end.
 */
export const protections = declared(
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
