import "server-only";
import { z } from "zod";
import { declared, noResult } from "./rpc";
import { callRpc } from "./server-rpc";

// An admin's one-time recovery codes (SQL: supabase/schemas/22-sign-in-and-two-step.sql). SQL makes them, keeps only
// salted hashes, spends each once in a session begun with the password, and audits every use.

/** Ten new codes, to be shown this once; every unused earlier code stops working. Admins at aal2. */
export const createRecoveryCodes = () => callRpc("create_recovery_codes", {}, z.array(z.string()).length(10));

/** How many unused codes the signed-in user has, and whether this session used one in the last fifteen minutes. */
export const getMyRecoveryState = () => callRpc("get_my_recovery_state", {}, declared("codes_left", "recovery_open"));

/** Spends one of the signed-in user's codes: true when it was an unused code of theirs. */
export const spendRecoveryCode = (code: string) => callRpc("use_recovery_code", { p_code: code }, z.boolean());

/** Allows and audits removing one of the user's own factors after a code was used in this session. */
export const recordFactorRemovalWithRecoveryCode = (factorId: string) =>
  callRpc("record_factor_removal_with_recovery_code", { p_factor_id: factorId }, noResult);
