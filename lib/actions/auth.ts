"use server";

import { isAuthWeakPasswordError } from "@supabase/supabase-js";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { captchaWidget, gateEmailRequest } from "@/lib/auth/captcha";
import { checkEmailCode } from "@/lib/auth/email-code";
import { afterSignIn, pendingApprovalPath, safeNextPath, signInCodePath } from "@/lib/auth/paths";
import { forgetSignInAddress, rememberSignInAddress } from "@/lib/auth/sign-in-address";
import { crossOriginReason } from "@/lib/http/same-origin";
import { updateMyProfile } from "@/lib/data/account";
import { askForEmailCode, emailCodeSent } from "@/lib/data/email-codes";
import { checkReferralCode } from "@/lib/data/referrals";
import { createClient } from "@/lib/supabase/server";
import { siteUrl } from "@/lib/site-url";
import {
  EMAIL_CODE_VOID,
  EMAIL_NOT_SENT,
  MISSING_CREDENTIALS,
  profileSchema,
  resetRequestSchema,
  SIGN_IN_CODE_REFUSED,
  signInCodeSchema,
  signInLinkSchema,
  signInSchema,
  signUpSchema,
  TOO_MANY_CODES,
} from "@/lib/validation/auth";
import { defineAction } from "./define-action";
import { fail, ok } from "./result";
import { countAuthRefusal } from "@/lib/observability/auth-refusals";

const TOO_MANY_ATTEMPTS = "Too many attempts from here. Please wait a few minutes and try again.";

// Spec §6: a blank e-mail or password gets GoTrue's own wording before any format check.
const passwordSignIn = z
  .object({
    method: z.literal("password"),
    email: z.string().prefault(""),
    password: z.string().prefault(""),
    next: z.string().optional(),
  })
  .refine(({ email, password }) => email.trim() !== "" && password !== "", MISSING_CREDENTIALS)
  .pipe(signInSchema);

/**
 * /login's one form (docs/decisions/055): one address, then either its password ("Sign in", the form's default
 * button, so Enter signs in) or "E-mail me a sign-in link" (`method=link`), which reads no password.
 */
const signInInput = z.preprocess(
  (input) => ({
    ...(input as object),
    method: (input as { method?: unknown }).method === "link" ? "link" : "password",
  }),
  z.discriminatedUnion("method", [passwordSignIn, signInLinkSchema]),
);

export const signIn = defineAction({ schema: signInInput, role: "public" }, async (input) =>
  input.method === "link" ? sendSignInLink(input) : signInWithPassword(input),
);

async function signInWithPassword({ email, password, next }: z.output<typeof passwordSignIn>) {
  const supabase = await createClient();
  const { data, error } = await supabase.auth.signInWithPassword({ email, password });
  if (error) {
    await countAuthRefusal("sign_in", error.code);
    if (error.code === "invalid_credentials") return fail("That e-mail and password do not match an account.");
    if (error.code === "email_not_confirmed")
      return fail("Please confirm your e-mail address first: check your inbox.");
    if (error.code === "over_request_rate_limit") return fail(TOO_MANY_ATTEMPTS);
    return fail(error.message);
  }
  redirect(afterSignIn(safeNextPath(next), data.user.factors));
}

/**
 * "E-mail me a sign-in link": a link and an 8-digit code by e-mail (GoTrue's POST /otp). Never a sign-up
 * (`shouldCreateUser: false`: an account needs the sign-up form's date of birth and terms), so an unknown
 * address is GoTrue's 422 otp_disabled, which gets the same answer as a known one: on to /login/code, which keeps the
 * address. When the e-mail allowance is spent nothing went out and the visitor is told so, as the reset form does
 * (docs/decisions/017). A few codes an hour per address, counted in SQL by the address typed before the auth server
 * looks it up, so that refusal too is the same for every address.
 */
async function sendSignInLink({ email, next, captchaToken }: z.output<typeof signInLinkSchema>) {
  const refused = await gateEmailRequest("account", captchaToken);
  if (refused) return refused;
  if ((await askForEmailCode(email)) > 0) return fail(TOO_MANY_CODES);
  const supabase = await createClient();
  const after = safeNextPath(next);
  const { error } = await supabase.auth.signInWithOtp({
    email,
    // The link lands on /auth/confirm, which verifies it and goes on to `next` (an absolute URL on this site).
    options: { shouldCreateUser: false, emailRedirectTo: `${await siteUrl()}${after}` },
  });
  if (error?.code === "over_email_send_rate_limit") return fail(EMAIL_NOT_SENT);
  if (error?.code === "over_request_rate_limit") return fail(TOO_MANY_ATTEMPTS);
  if (error && error.code !== "otp_disabled") return fail(error.message);
  // A new code went (or the address has no account, answered alike): it starts with five tries. Not before the
  // auth server answered: a refused send leaves the outstanding code with the tries it has left.
  await emailCodeSent(email);
  await rememberSignInAddress(email);
  redirect(signInCodePath(next ? after : undefined));
}

/**
 * The 8-digit code from that e-mail: signs in, then goes where a password sign-in goes (two-step first). Every code
 * typed for an address is counted in SQL before the auth server checks it (checkEmailCode, which the e-mail's link
 * shares), whichever visitor types it: after five that are wrong, the address's code is void here until a new one is
 * sent, so no number of visitors can guess it (hosted GoTrue counts guesses per visitor only).
 */
export const signInWithCode = defineAction(
  { schema: signInCodeSchema, role: "public" },
  async ({ email, code, next }) => {
    const checked = await checkEmailCode(email, code, "email");
    if (checked.ok) {
      await forgetSignInAddress();
      redirect(afterSignIn(safeNextPath(next), checked.user?.factors));
    }
    switch (checked.refusal) {
      case "void":
        return fail(EMAIL_CODE_VOID, { fieldErrors: { code: [EMAIL_CODE_VOID] } });
      case "wrong":
        return fail(SIGN_IN_CODE_REFUSED, { fieldErrors: { code: [SIGN_IN_CODE_REFUSED] } });
      case "rate_limited":
        return fail(TOO_MANY_ATTEMPTS);
      case "other":
        return fail(checked.message);
    }
  },
);

// Under-18s never reach GoTrue: the schema refuses them with the SQL trigger's own message.
export const signUp = defineAction(
  { schema: signUpSchema, role: "public" },
  async ({ name, email, password, dateOfBirth, marketingConsent, referralCode, next, captchaToken }) => {
    const refused = await gateEmailRequest("signup", captchaToken);
    if (refused) return refused;
    // An unknown or own invite code is refused here, beside its field, before any account exists: the visitor
    // came for the credit and can correct or clear the code (docs/decisions/032).
    const referral = referralCode ? await checkReferralCode(referralCode, email) : null;
    const supabase = await createClient();
    // The waiting page records the page the visitor came from, so the approval can lead back to it.
    const waitingPage = pendingApprovalPath(next);
    const { data, error } = await supabase.auth.signUp({
      email,
      password,
      options: {
        // The sign-up trigger records the marketing choice (true only when the box was ticked).
        data: {
          name,
          date_of_birth: dateOfBirth,
          marketing_consent: marketingConsent,
          ...(referral ? { referral_code: referral.code } : {}),
        },
        // Where the confirmation link's /auth/confirm goes on to once the code is checked (only when the auth
        // server asks for confirmations: supabase/config.toml's enable_confirmations), as a sign-up with a session does.
        emailRedirectTo: `${await siteUrl()}${waitingPage}`,
      },
    });
    if (error) {
      if (isAuthWeakPasswordError(error)) return fail("Please choose a stronger password.", { reasons: error.reasons });
      if (error.code === "user_already_exists")
        return fail("An account with that e-mail already exists. Sign in instead.");
      if (error.code === "over_request_rate_limit") return fail(TOO_MANY_ATTEMPTS);
      if (error.code === "over_email_send_rate_limit") return fail(EMAIL_NOT_SENT);
      return fail(error.message);
    }
    if (!data.session)
      return ok(undefined, `We have sent a confirmation link to ${email}. Open it to finish signing up.`);
    redirect(waitingPage);
  },
);

export const requestPasswordReset = defineAction(
  { schema: resetRequestSchema, role: "public" },
  async ({ email, captchaToken }) => {
    const refused = await gateEmailRequest("account", captchaToken);
    if (refused) return refused;
    // The reset e-mail carries a code too (which the code form takes): it counts among the address's few an hour.
    if ((await askForEmailCode(email)) > 0) return fail(TOO_MANY_CODES);
    const supabase = await createClient();
    const { error } = await supabase.auth.resetPasswordForEmail(email, {
      redirectTo: `${await siteUrl()}/auth/reset-password`,
    });
    // Same answer whether or not the account exists, so the form cannot be used to probe for accounts. When
    // the e-mail allowance is spent nothing goes out, and the visitor is told so rather than to wait for a
    // link: the embedded auth server counts the allowance before it looks the address up, so that refusal
    // is the same for every address too (docs/decisions/017).
    if (error?.code === "over_email_send_rate_limit") return fail(EMAIL_NOT_SENT);
    if (error?.code === "over_request_rate_limit") return fail(TOO_MANY_ATTEMPTS);
    if (error && error.status !== 404 && error.code !== "user_not_found") return fail(error.message);
    await emailCodeSent(email);
    return ok(undefined, "If an account exists for that e-mail, a reset link is on its way.");
  },
);

/** The CAPTCHA widget's settings, asked by a form only once it has been asked for the check. */
export const loadCaptchaWidget = defineAction({ schema: z.object({}), role: "public" }, async () =>
  ok(captchaWidget()),
);

export const updateProfile = defineAction({ schema: profileSchema, role: "user" }, async (profile) => {
  await updateMyProfile(profile);
  revalidatePath("/", "layout");
  return ok(undefined, "Profile saved.");
});

/**
 * Signs out and goes home. A POST only, from a form on this site: a GET of /logout shows the question and
 * this button, so a link or an image on another site can never sign a visitor out. The proxy refuses a
 * cross-origin action already; the check here holds whatever reaches the action. supabase-js ignores
 * 401/403/404 from the server and still clears the local session (spec §4), so the cookies always go.
 */
export const signOut = defineAction({ schema: z.object({}), role: "public" }, async () => {
  if (crossOriginReason(await headers())) return fail("Requests from other sites are refused");
  const supabase = await createClient();
  await supabase.auth.signOut({ scope: "local" });
  redirect("/");
});
