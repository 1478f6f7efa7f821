import "server-only";
import { z } from "zod";
import { account, myAccount, type Account, type MyAccount } from "./account-schema";
import { declared, noResult } from "./rpc";
import { callRpc } from "./server-rpc";

/** What to list: a kind and a month (its first day), null for all. */
/**
 * The account dashboard's own facts (get_my_dashboard), beside the account row the proxy hands on: whether to
 * invite a monthly limit, and the titles of the prizes waiting for a claim, newest first. One read for the page.
 */
export const getMyDashboard = () => callRpc("get_my_dashboard", {}, declared("needs_limit_prompt", "unclaimed_prizes"));

export type LedgerFilter = { kind: string | null; monthStart: string | null };

/**
 * One page of the signed-in user's ledger, newest first, older than `before` (a ledger id); `next_before` is null
 * on the last page; the totals cover the whole filter, worked out in SQL.
 */
export const getMyLedgerPage = (filter: LedgerFilter, before: number | null, limit: number) =>
  callRpc(
    "get_my_ledger_page",
    { p_kind: filter.kind, p_month: filter.monthStart, p_before: before, p_limit: limit },
    declared("rows", "totals").with({
      rows: declared("id", "kind", "amount", "balance_after", "created_at"),
      totals: declared("count", "credits_in", "credits_out", "net"),
    }),
  );
export type LedgerPage = Awaited<ReturnType<typeof getMyLedgerPage>>;
export type LedgerRow = LedgerPage["rows"][number];

/** Every row of the filter as CSV, oldest first, with its total line (built in SQL, so it matches the ledger). */
export const getMyLedgerCsv = (filter: LedgerFilter): Promise<string> =>
  callRpc("get_my_ledger_csv", { p_kind: filter.kind, p_month: filter.monthStart }, z.string());

/** The signed-in user's merged profile and account data, and whether a second step is owed (get_my_account). */
export const getMyAccount = (): Promise<MyAccount> => callRpc("get_my_account", {}, myAccount);

/** Dismisses the caller's own "You're approved" welcome for good; true when it was still showing. */
export const dismissApprovalWelcome = (): Promise<boolean> => callRpc("dismiss_approval_welcome", {}, z.boolean());

/**
 * Saves the signed-in user's own name and town (an empty town clears it); answers the account as it now is.
 * The notification preference (setEmailNotifications) and the marketing choice (setMyMarketingConsent) have their
 * own forms.
 */
export const updateMyProfile = (profile: { name: string; town: string }): Promise<Account> =>
  callRpc("update_my_profile", { p_name: profile.name, p_email_notifications: null, p_town: profile.town }, account);

/**
 * The signed-in player's marketing consent (`given`) and their last recorded choice: when (`at`), the wording it
 * was about and where it was made (`source`), each null when none is recorded.
 */
export const getMyMarketingConsent = () => callRpc("get_my_marketing_consent", {}, declared("given"));
export type MarketingConsent = Awaited<ReturnType<typeof getMyMarketingConsent>>;

/** Gives (true) or withdraws (false) the signed-in player's marketing consent; SQL records the choice. */
export const setMyMarketingConsent = (given: boolean) =>
  callRpc("set_my_marketing_consent", { p_given: given }, declared("given"));

/**
 * The player's notification preference (email_notifications): whether news the site shows them as it happens
 * (instant wins) is e-mailed too. Not marketing; answers the account as it now is.
 */
export const setEmailNotifications = (on: boolean): Promise<Account> =>
  callRpc("update_my_profile", { p_name: null, p_email_notifications: on, p_town: null }, account);

/** Whether the player appears by initials only if they win (CAP 8.28.5); answers the account as it now is. */
export const setInitialsOnly = (initialsOnly: boolean): Promise<Account> =>
  callRpc("set_initials_only", { p_initials_only: initialsOnly }, account);

/**
 * Whether every verified second factor of the signed-in user was proven with a code from their inbox
 * (an admin's console needs that), and whether they confirmed such a code in the last fifteen minutes.
 */
export const getMyFactorProof = () => callRpc("get_my_factor_proof", {}, declared("factors_proven", "inbox_confirmed"));

/** Checks the code the auth server e-mailed the signed-in user (GET /reauthenticate): true when it is theirs and fresh. */
export const confirmReauthentication = (code: string) =>
  callRpc("confirm_reauthentication", { p_code: code }, z.boolean());

/** After setting up an authenticator at aal2: proves it with the fresh inbox confirmation (reauthentication_needed without). */
export const recordFactorEnrolment = () => callRpc("record_factor_enrolment", {}, noResult);

/**
 * The page the signed-in player came from before waiting for approval, where the approval leads back to: `path`
 * (a path approvalReturnPath kept) is recorded first while the account waits; answers what is recorded, or null.
 */
export const myReturnPath = (path: string | null): Promise<string | null> =>
  callRpc("my_return_path", path ? { p_path: path } : {}, z.string().nullable());
