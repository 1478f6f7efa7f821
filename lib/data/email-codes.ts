import "server-only";
import { z } from "zod";
import { createAdminClient } from "@/lib/supabase/admin";
import { callRpcWith, noResult } from "./rpc";

// The site's own count of e-mailed codes, by the address typed (supabase/schemas/22-sign-in-and-two-step.sql:
// ask_for_email_code, email_code_sent, take_email_code_try, clear_email_code_tries). The secret key's: no visitor may
// read or spend an address's count.

/** Before asking the auth server to e-mail a code to `email`: 0 when one may go (counted), else the seconds to wait. */
export const askForEmailCode = (email: string) =>
  callRpcWith(createAdminClient(), "ask_for_email_code", { p_email: email }, z.number().int());

/**
 * After the auth server accepted a request for a code to `email` (or answered as it does for an address without an
 * account): the new code starts with five tries. Never before: a refused send leaves the outstanding code's count.
 */
export const emailCodeSent = (email: string) =>
  callRpcWith(createAdminClient(), "email_code_sent", { p_email: email }, noResult);

/**
 * Before having the auth server check a code typed for `email`: counts the try and answers how many the code had left
 * with it (5 down to 1), or 0 when it is void and must not be tried.
 */
export const takeEmailCodeTry = (email: string) =>
  callRpcWith(createAdminClient(), "take_email_code_try", { p_email: email }, z.number().int());

/** The code typed for `email` was right: its count of tries ends. */
export const clearEmailCodeTries = (email: string) =>
  callRpcWith(createAdminClient(), "clear_email_code_tries", { p_email: email }, noResult);

/**
 * Before asking the auth server for an e-mail to an account or to a new address (`kind`), for `visitor`: counted, or
 * a DbError coded captcha_required past `thresholds` (take_email_request) unless `captchaPassed`.
 */
export const takeEmailRequest = (
  visitor: string,
  kind: "account" | "signup",
  captchaPassed: boolean,
  thresholds: { perVisitor: number; perSite: number },
) =>
  callRpcWith(
    createAdminClient(),
    "take_email_request",
    {
      p_visitor: visitor,
      p_kind: kind,
      p_captcha_passed: captchaPassed,
      p_per_visitor: thresholds.perVisitor,
      p_per_site: thresholds.perSite,
    },
    noResult,
  );
