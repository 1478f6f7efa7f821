"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { recoveryCodesPath, safeNextPath, twoStepPath } from "@/lib/auth/paths";
import { removeSecondFactor } from "@/lib/auth/factors";
import { getFactorProof, getSessionFacts } from "@/lib/auth/session";
import { confirmReauthentication, recordFactorEnrolment } from "@/lib/data/account";
import {
  createRecoveryCodes,
  getMyRecoveryState,
  recordFactorRemovalWithRecoveryCode,
  spendRecoveryCode,
} from "@/lib/data/recovery-codes";
import { log } from "@/lib/observability/log";
import { askForEmailCode } from "@/lib/data/email-codes";
import { DbError } from "@/lib/data/errors";
import { isAdminRole } from "@/lib/data/account-schema";
import { createClient } from "@/lib/supabase/server";
import { authenticatorCode, EMAIL_NOT_SENT, emailCode, TOO_MANY_CODES } from "@/lib/validation/auth";
import { EMAIL_CODE_LENGTH, EMAIL_CODE_LIFE } from "@/lib/validation/email-code";
import { SECOND_STEP_REQUIRED } from "@/lib/auth/calling-policy";
import { defineAction } from "./define-action";
import { fail, ok, type ActionFailure } from "./result";
import { countAuthRefusal } from "@/lib/observability/auth-refusals";

// Two-step verification with an authenticator app (TOTP), through the auth server's MFA API: set up
// (enrol a factor, then verify its first code), give a code after signing in (challenge and verify,
// which raises the session to aal2), and turn it off. Giving a code and setting up run at aal1 on
// purpose (`firstStep`): they are how a session reaches aal2. Turning it off needs aal2 (GoTrue says so)
// and the app's current code. An admin's authenticator also needs their inbox: a code the auth server
// e-mails them (its reauthentication nonce), confirmed before the set-up and spent by it, so a stolen
// password alone cannot set up "their" authenticator (SQL: record_factor_enrolment, is_admin). An admin may hold
// several authenticators, each under its own name, and makes ten one-time recovery codes after their first; a code,
// typed in a session made with the password, lets that session remove its lost authenticators so a new one can be
// set up (SQL decides and audits: supabase/schemas/22-sign-in-and-two-step.sql; the auth admin API removes).

/** The name the factor is enrolled under, and what authenticator apps list it as. */
const FACTOR_NAME = "Authenticator app";
const ISSUER = "LabCash";

const codeField = authenticatorCode("Enter the 6-digit code from your authenticator app");

const codeInput = z.object({ code: codeField, next: z.string().optional() });

const inboxCodeInput = z.object({
  code: emailCode(),
  next: z.string().optional(),
});

/** A wrong code: the whole message beside the code field (one message per field, none repeated above it). */
function wrongCode(message: string): ActionFailure {
  return fail(message, { fieldErrors: { code: [message] } });
}

/** What a refused code means to the person typing it, by GoTrue's error code. */
async function codeRefusal(code: string | undefined, message: string): Promise<ActionFailure> {
  await countAuthRefusal("code", code);
  switch (code) {
    case "mfa_verification_failed":
      return wrongCode("That code is not right. Enter the newest code your authenticator app shows for LabCash.");
    case "mfa_challenge_expired":
      return fail("That took too long. Enter the newest code and try again.");
    case "over_request_rate_limit":
      return fail("Too many attempts from here. Please wait a minute and try again.");
    case "mfa_verification_rejected":
      // The auth server's hook refused a code from a visitor who typed too many wrong ones (SQL:
      // hook_mfa_verification_attempt); GoTrue has then signed the account out everywhere.
      return fail(
        "Too many wrong codes have been typed from here, so this code was not accepted and you have been signed out. Please try again later.",
      );
    default:
      return fail(message);
  }
}

const verifyInput = codeInput.extend({ factorId: z.uuid("Choose an authenticator").optional() });

/**
 * After signing in: the code from an authenticator app set up earlier (the one chosen, for someone who holds
 * several: a code is checked against one factor only, so a wrong guess never counts against the others).
 */
export const verifyTwoStep = defineAction(
  { schema: verifyInput, role: "user", firstStep: true },
  async ({ code, next, factorId }) => {
    const supabase = await createClient();
    const { data, error } = await supabase.auth.mfa.listFactors();
    if (error) return fail("User not authenticated", { code: "not_authenticated" });
    const factor = factorId ? data.totp.find((f) => f.id === factorId) : data.totp[0];
    if (!factor) return fail("Set up two-step verification first.");
    const { error: refused } = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    if (refused) return codeRefusal(refused.code, refused.message);
    redirect(safeNextPath(next));
  },
);

/** What an authenticator is listed as, so an admin holding two can tell them apart. */
const factorName = z
  .string()
  .trim()
  .min(1, "Give this authenticator a name, such as the phone it is on")
  .max(40, "Use 40 characters or fewer");

const setupInput = z.object({ name: factorName.optional() });

/** Setting up, step 1: a new factor, whose QR code and key the page shows once. */
export const startTwoStepSetup = defineAction(
  { schema: setupInput, role: "user", firstStep: true },
  async ({ name }) => {
    const supabase = await createClient();
    const { data: factors, error: listError } = await supabase.auth.mfa.listFactors();
    if (listError) return fail("User not authenticated", { code: "not_authenticated" });
    // A set-up left half-way on an earlier visit holds the factor's name: clear it away first.
    for (const factor of factors.all) {
      if (factor.status === "unverified") await supabase.auth.mfa.unenroll({ factorId: factor.id });
    }
    const { data, error } = await supabase.auth.mfa.enroll({
      factorType: "totp",
      friendlyName: name ?? FACTOR_NAME,
      issuer: ISSUER,
    });
    if (error) {
      if (error.code === "insufficient_aal") return fail(SECOND_STEP_REQUIRED, { code: "aal2_required" });
      if (error.code === "mfa_factor_name_conflict") {
        if (!name) return fail("Two-step verification is already set up.");
        const taken = `You already have an authenticator called "${name}". Choose another name.`;
        return fail(taken, { fieldErrors: { name: [taken] } });
      }
      return fail(error.message);
    }
    return ok({ factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
  },
);

const finishInput = codeInput.extend({ factorId: z.uuid("Start setting up again") });

/**
 * Setting up, step 2: the app's first code proves it holds the key, and the session reaches aal2. An admin without
 * recovery codes (a first authenticator, or the first after a recovery) goes on by way of making them. That is a
 * page of its own: this action sets the session's cookies, so Next redraws the code step, which sends an aal2
 * session on, and anything shown in its place would be gone.
 */
export const finishTwoStepSetup = defineAction(
  { schema: finishInput, role: "user", firstStep: true },
  async ({ factorId, code, next }, account) => {
    const supabase = await createClient();
    const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
    if (error) {
      if (error.code === "mfa_factor_not_found") return fail("That set-up has expired. Please start again.");
      return codeRefusal(error.code, error.message);
    }
    revalidatePath("/account/profile");
    const target = safeNextPath(next, "/account/profile");
    if (!isAdminRole(account.role)) redirect(target);
    // An admin's new authenticator counts once the inbox confirmation proves it (confirmed first, on this page).
    await recordFactorEnrolment();
    if ((await getMyRecoveryState()).codes_left === 0) redirect(recoveryCodesPath(target));
    redirect(target);
  },
);

/** An admin at aal2 replaces their recovery codes: ten new ones, shown once; the unused old ones stop working. */
export const makeNewRecoveryCodes = defineAction({ schema: z.object({}), role: "admin" }, async () =>
  ok(await createRecoveryCodes()),
);

const recoveryCodeInput = z.object({
  recoveryCode: z
    .string()
    .trim()
    .min(1, "Enter one of your recovery codes")
    .max(40, "That is longer than a recovery code")
    .regex(/^[0-9A-Za-z -]+$/, "A recovery code has only letters, digits and dashes"),
  next: z.string().optional(),
});

/**
 * A lost authenticator: one of the admin's recovery codes, in the session their password made, opens the removal
 * of their authenticators to that session for fifteen minutes (SQL checks and audits; the page then lists them).
 */
export const redeemRecoveryCode = defineAction(
  { schema: recoveryCodeInput, role: "user", firstStep: true },
  async ({ recoveryCode, next }) => {
    let accepted: boolean;
    try {
      accepted = await spendRecoveryCode(recoveryCode);
    } catch (e) {
      if (
        e instanceof DbError &&
        (e.code === "password_session_required" ||
          e.code === "too_many_recovery_codes" ||
          e.code === "no_recovery_codes")
      )
        return fail(e.message, { fieldErrors: { recoveryCode: [e.message] } });
      throw e;
    }
    if (!accepted) {
      const message = "That recovery code is not right, or it has been used already.";
      return fail(message, { fieldErrors: { recoveryCode: [message] } });
    }
    revalidatePath("/account/two-step");
    redirect(twoStepPath(safeNextPath(next)));
  },
);

/** After a recovery code: removes one of the admin's own authenticators (SQL allows and audits it first). */
export const removeLostAuthenticator = defineAction(
  {
    schema: z.object({ factorId: z.uuid("Choose an authenticator"), next: z.string().optional() }),
    role: "user",
    firstStep: true,
  },
  async ({ factorId, next }, account) => {
    await recordFactorRemovalWithRecoveryCode(factorId);
    try {
      await removeSecondFactor(account.id, factorId);
    } catch (e) {
      log("error", "second_factor_not_removed", { user_id: account.id, error: e });
      return fail("The auth server did not remove the authenticator. Please try again.");
    }
    redirect(twoStepPath(safeNextPath(next)));
  },
);

/**
 * Before an admin sets up an authenticator: the auth server e-mails them an 8-digit code, one of the few an hour
 * their address may have (ask_for_email_code). Not email_code_sent after it: this code's wrong tries are counted
 * per code sent by confirm_reauthentication, and it replaces no sign-in code, whose tries must stay as they are.
 */
export const sendInboxCode = defineAction(
  { schema: z.object({}), role: "user", firstStep: true },
  async (_input, account) => {
    if (account.email && (await askForEmailCode(account.email)) > 0) return fail(TOO_MANY_CODES);
    const supabase = await createClient();
    const { error } = await supabase.auth.reauthenticate();
    if (error?.code === "over_email_send_rate_limit") return fail(EMAIL_NOT_SENT);
    if (error) return fail(error.message);
    return ok(undefined, `We have e-mailed you an ${EMAIL_CODE_LENGTH}-digit code. It works for ${EMAIL_CODE_LIFE}.`);
  },
);

/**
 * The e-mailed code: once it is confirmed the page offers the set-up; an admin who has already given an
 * authenticator's code (an earlier set-up that was never proven) is proven at once and goes on.
 */
export const confirmInboxCode = defineAction(
  { schema: inboxCodeInput, role: "user", firstStep: true },
  async ({ code, next }) => {
    const target = safeNextPath(next, "/account/profile");
    let confirmed: boolean;
    try {
      confirmed = await confirmReauthentication(code);
    } catch (e) {
      // Five wrong codes: SQL says so in its own words, which ask for a new code.
      if (e instanceof DbError && e.code === "email_code_void") return wrongCode(e.message);
      throw e;
    }
    if (!confirmed)
      return wrongCode("That code is not right, or it has expired. Check the newest e-mail, or ask for a new code.");
    if (!(await getSessionFacts()).atSecondStep) redirect(twoStepPath(target));
    // Adding another authenticator: the confirmation waits, unspent, for the one about to be set up.
    if ((await getFactorProof()).factors_proven) redirect(target);
    await recordFactorEnrolment();
    redirect(target);
  },
);

/** An admin's authenticator verified in this session, after the inbox was confirmed: proves it and goes on. */
export const proveAuthenticator = defineAction(
  { schema: z.object({ next: z.string().optional() }), role: "user", firstStep: true },
  async ({ next }) => {
    await recordFactorEnrolment();
    redirect(safeNextPath(next, "/admin"));
  },
);

/**
 * Turning it off (players only: admins must keep it). Needs a session that gave its code, and the app's
 * current code again, so a session left open somewhere cannot take the protection away.
 */
export const turnOffTwoStep = defineAction({ schema: codeInput, role: "user" }, async ({ code }, account) => {
  if (isAdminRole(account.role)) return fail("Admins must keep two-step verification on.");
  const supabase = await createClient();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) return fail("User not authenticated", { code: "not_authenticated" });
  const factor = data.totp[0];
  if (factor) {
    const { error: refused } = await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    if (refused) return codeRefusal(refused.code, refused.message);
  }
  for (const factor of data.all) {
    const { error: refused } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (refused?.code === "insufficient_aal") return fail(SECOND_STEP_REQUIRED, { code: "aal2_required" });
    if (refused) return fail(refused.message);
  }
  // The session drops back to aal1 at once, not at its next refresh.
  await supabase.auth.refreshSession();
  // The profile redraws without the factor, which is the confirmation.
  revalidatePath("/account/profile");
  return ok(undefined);
});
