import "server-only";
import { z } from "zod";
import { createAdminClient } from "@/lib/supabase/admin";
import { callRpcWith, declared } from "./rpc";

/** A marketing mail's unsubscribe token: 64 hex characters (SQL checks it again, and whose it is). */
export const unsubscribeTokenSchema = z.string().regex(/^[0-9a-f]{64}$/, "This unsubscribe link is not valid");

/**
 * Withdraws the marketing consent a mail's unsubscribe link names, without a session: the server's secret
 * key is the only caller SQL accepts (unsubscribe_marketing), and the random token says whose consent it
 * is. Once per link: a second use is refused with `unsubscribe_link_used`, an unknown token with
 * `unsubscribe_link_invalid` (both thrown as DbError).
 */
export const unsubscribeMarketing = (token: string) =>
  callRpcWith(createAdminClient(), "unsubscribe_marketing", { p_token: token }, declared("unsubscribed"));
