import { z } from "zod";
import { EMAIL_CODE_LENGTH, EMAIL_CODE_LIFE } from "./email-code";

/** The CAPTCHA widget's token, sent only once a form has been asked for the check (lib/auth/captcha.ts). */
export const captchaTokenField = z
  .string()
  .trim()
  .max(4096, "That check did not work. Please try it again.")
  .optional();

// Shared by the forms (client hints) and the server actions (the real check).
export const MISSING_CREDENTIALS = "You must provide either an email or phone number and a password";
/** The auth server's e-mail allowance (per address, per visitor, per hour) is spent: nothing was sent. */
export const EMAIL_NOT_SENT = "We could not send the e-mail just now. Please try again in a few minutes.";
export const UNDER_18 = "You must be 18 or over to join LabCash";
/** The marketing consent statement, as SQL records it (private.marketing_consent_wording; a db test keeps them equal). */
export const MARKETING_CONSENT_WORDING = "E-mail me about new competitions and results";

export const PASSWORD_RULES = [
  { test: (p: string) => p.length >= 8, reason: "Use at least 8 characters" },
  { test: (p: string) => /[a-z]/.test(p), reason: "Include a lower-case letter" },
  { test: (p: string) => /[A-Z]/.test(p), reason: "Include an upper-case letter" },
  { test: (p: string) => /[0-9]/.test(p), reason: "Include a digit" },
] as const;

/** The reasons a password is weak (empty when it is strong enough). */
export function weakPasswordReasons(password: string): string[] {
  return PASSWORD_RULES.filter((r) => !r.test(password)).map((r) => r.reason);
}

/** Whole years between a date of birth and today (UTC), or null for an impossible date. */
export function ageOn(dateOfBirth: string, today = new Date()): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  if (!match) return null;
  const [y, m, d] = match.slice(1).map(Number);
  const dob = new Date(Date.UTC(y, m - 1, d));
  if (dob.getUTCFullYear() !== y || dob.getUTCMonth() !== m - 1 || dob.getUTCDate() !== d) return null;
  let age = today.getUTCFullYear() - y;
  const beforeBirthday = today.getUTCMonth() < m - 1 || (today.getUTCMonth() === m - 1 && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** /login's one form sent with its "Sign in" button: the address and its password. */
export const signInSchema = z.object({
  method: z.literal("password"),
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address"),
  password: z.string().min(1, MISSING_CREDENTIALS),
  next: z.string().optional(),
});

export const newPasswordSchema = z.string().superRefine((password, ctx) => {
  const reasons = weakPasswordReasons(password);
  if (reasons.length) ctx.addIssue({ code: "custom", message: `Password is too weak: ${reasons.join("; ")}` });
});

export const signUpSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "Keep your name under 100 characters"),
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address"),
  password: newPasswordSchema,
  dateOfBirth: z
    .string()
    .refine((v) => ageOn(v) !== null, "Enter your date of birth")
    .refine((v) => (ageOn(v) ?? 0) >= 18, UNDER_18)
    .refine((v) => (ageOn(v) ?? 0) <= 120, "Enter your real date of birth"),
  terms: z.literal("on", { message: "Please accept the terms and conditions" }),
  /** Unticked unless the visitor ticks it: marketing consent is never assumed (PECR, code of practice 1.11). */
  marketingConsent: z.preprocess((value) => value === "on", z.boolean()),
  /** A friend's invite code from the link (?ref=), or typed; optional. SQL checks it (check_referral_code). */
  referralCode: z.string().trim().max(40, "An invite code is 10 letters and digits").prefault(""),
  /** The page the visitor came from, kept for the approval to lead back to (lib/auth/paths approvalReturnPath). */
  next: z.string().optional(),
  captchaToken: captchaTokenField,
});

export const profileSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "Keep your name under 100 characters"),
  town: z.string().trim().max(60, "Keep the town under 60 characters"),
});

export const resetRequestSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address"),
  captchaToken: captchaTokenField,
});

/** The one answer to "E-mail me a sign-in link", whether or not an account uses the address. */
export const CHECK_INBOX = `Check your inbox. If an account uses that address, a sign-in link and an ${EMAIL_CODE_LENGTH}-digit code are on their way; either works once, within ${EMAIL_CODE_LIFE}.`;
/** A wrong, spent or expired e-mailed code (the auth server does not say which, nor whether the address exists). */
export const SIGN_IN_CODE_REFUSED = "That code is wrong or has expired. Ask for a new sign-in link.";
/** Five codes have been typed for the address's outstanding code: it no longer works, even if right. */
export const EMAIL_CODE_VOID = "Too many wrong codes for this address: that code no longer works. Ask for a new one.";
/** The address has had its new codes for the hour (ask_for_email_code): nothing was sent. */
export const TOO_MANY_CODES = "Too many codes have been asked for this address. Please try again in an hour.";

/** A code of `length` digits as typed: spaces dropped (a code may be copied with them), then the digits, else `message`. */
export function digitCode(length: number, message: string) {
  return z
    .string()
    .prefault("")
    .transform((code) => code.replace(/\s/g, ""))
    .pipe(z.string().regex(new RegExp(`^\\d{${length}}$`), message));
}

/** An authenticator app's code: six digits (RFC 6238 as GoTrue enrols it). */
export const authenticatorCode = (message: string) => digitCode(6, message);
/** A code from one of the auth server's e-mails. */
export const emailCode = () =>
  digitCode(EMAIL_CODE_LENGTH, `Enter the ${EMAIL_CODE_LENGTH}-digit code from the e-mail`);

/** The same form sent with "E-mail me a sign-in link": the address alone (a password typed there is not read). */
export const signInLinkSchema = z.object({
  method: z.literal("link"),
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address").prefault(""),
  next: z.string().optional(),
  captchaToken: captchaTokenField,
});

/**
 * An auth e-mail's link to /auth/confirm: the address and the code it carries, and what the code is for. Never a bare
 * token_hash: a link must name its address so each try is counted against it (checkEmailCode).
 */
export const emailLinkSchema = z.object({
  email: z.string().trim().toLowerCase().email(),
  code: emailCode(),
  type: z.enum(["email", "magiclink", "recovery", "signup", "invite", "email_change"]),
  next: z.string().optional(),
});

export const signInCodeSchema = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address"),
  code: emailCode(),
  next: z.string().optional(),
});
