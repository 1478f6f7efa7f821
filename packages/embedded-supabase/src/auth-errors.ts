// GoTrue's error responses. GoTrue answers in two shapes, chosen by the
// X-Supabase-Api-Version request header that supabase-js always sends:
//   2024-01-01 and later: { code: "<error_code>", message }   (header echoed back)
//   none (legacy):        { code: <status>, error_code, msg }
// supabase-js reads `code` only when the response echoes the version header, so
// both the body and the echo must match or the client loses the error code.
import type { Reply } from "./http";

export const API_VERSION = "2024-01-01";

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level fields, e.g. weak_password: { reasons }. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** True when the request asked for the 2024-01-01 (or later) API. */
export function wantsCurrentApi(versionHeader: string | undefined): boolean {
  if (!versionHeader || !/^\d{4}-\d{2}-\d{2}$/.test(versionHeader)) return false;
  return versionHeader >= API_VERSION;
}

export function authErrorReply(e: AuthError, versionHeader: string | undefined): Reply {
  if (wantsCurrentApi(versionHeader)) {
    return {
      status: e.status,
      body: { code: e.code, message: e.message, ...e.extra },
      headers: { "X-Supabase-Api-Version": API_VERSION },
    };
  }
  return { status: e.status, body: { code: e.status, error_code: e.code, msg: e.message, ...e.extra } };
}

// The errors GoTrue gives for the situations the embedded server meets, with
// GoTrue's status codes and wording.
export const authErrors = {
  badJson: (detail: string) => new AuthError(400, "bad_json", `Could not parse request body as JSON: ${detail}`),
  tooLarge: () => new AuthError(413, "request_too_large", "Request body is over the 1 MiB limit"),
  unsupportedMediaType: (type: string) =>
    new AuthError(415, "validation_failed", `Content-Type ${type} is not supported; send application/json`),
  notFound: () => new AuthError(404, "not_found", "Not Found"),
  methodNotAllowed: () => new AuthError(405, "method_not_allowed", "Method Not Allowed"),
  noAuthorization: () => new AuthError(401, "no_authorization", "This endpoint requires a valid Bearer token"),
  badJwt: (detail: string) =>
    new AuthError(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${detail}`),
  missingSub: () => new AuthError(403, "bad_jwt", "invalid claim: missing sub claim"),
  sessionNotFound: () => new AuthError(403, "session_not_found", "Session from session_id claim in JWT does not exist"),
  userFromJwtMissing: () => new AuthError(403, "user_not_found", "User from sub claim in JWT does not exist"),
  notAdmin: () => new AuthError(403, "not_admin", "User not allowed"),
  userNotFound: () => new AuthError(404, "user_not_found", "User not found"),
  badUserId: () => new AuthError(404, "validation_failed", "user_id must be an UUID"),
  overRequestRateLimit: () => new AuthError(429, "over_request_rate_limit", "Request rate limit reached"),
  overEmailSendRateLimit: () => new AuthError(429, "over_email_send_rate_limit", "email rate limit exceeded"),
  emailTooSoon: (seconds: number) =>
    new AuthError(
      429,
      "over_email_send_rate_limit",
      `For security purposes, you can only request this after ${seconds} seconds.`,
    ),
  invalidCredentials: () => new AuthError(400, "invalid_credentials", "Invalid login credentials"),
  /** LabCash's per-account limit (rate-limit.ts): GoTrue's code for a limit, with the wait in the message. */
  tooManyWrongPasswords: (seconds: number) =>
    new AuthError(429, "over_request_rate_limit", `Too many wrong passwords. Try again in ${seconds} seconds.`),
  tooManyWrongCodes: (seconds: number) =>
    new AuthError(429, "over_request_rate_limit", `Too many wrong codes. Try again in ${seconds} seconds.`),
  // GoTrue's otp.go and reauthenticate.go.
  otpDisabled: () => new AuthError(422, "otp_disabled", "Signups not allowed for otp"),
  phoneProviderDisabled: () => new AuthError(400, "phone_provider_disabled", "Unsupported phone provider"),
  emailNotVerified: () => new AuthError(422, "email_not_confirmed", "Please verify your email first."),
  reauthenticationNotValid: () => new AuthError(422, "reauthentication_not_valid", "Nonce has expired or is invalid"),
  emailNotConfirmed: () => new AuthError(400, "email_not_confirmed", "Email not confirmed"),
  userBanned: () => new AuthError(400, "user_banned", "User is banned"),
  userAlreadyExists: () => new AuthError(422, "user_already_exists", "User already registered"),
  emailExists: () => new AuthError(422, "email_exists", "A user with this email address has already been registered"),
  // GoTrue's validateEmail (internal/api/mail.go): all three are 400 validation_failed. GoTrue's
  // email_address_invalid ("Email address … is invalid") comes only from its optional mailer-side
  // address check (DNS, example domains) on hosted projects, which the embedded server does not do.
  emailRequired: () => new AuthError(400, "validation_failed", "An email address is required"),
  emailTooLong: () => new AuthError(400, "validation_failed", "An email address is too long"),
  invalidEmail: () => new AuthError(400, "validation_failed", "Unable to validate email address: invalid format"),
  anonymousDisabled: () => new AuthError(422, "anonymous_provider_disabled", "Anonymous sign-ins are disabled"),
  phoneDisabled: (what: "signups" | "logins") =>
    new AuthError(400, "phone_provider_disabled", `Phone ${what} are disabled`),
  badPagination: (detail: string) => new AuthError(400, "validation_failed", `Bad Pagination Parameters: ${detail}`),
  validation: (message: string, status = 400) => new AuthError(status, "validation_failed", message),
  samePassword: () => new AuthError(422, "same_password", "New password should be different from the old password."),
  refreshTokenNotFound: () =>
    new AuthError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found"),
  refreshTokenAlreadyUsed: () =>
    new AuthError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used"),
  otpExpired: () => new AuthError(403, "otp_expired", "Token has expired or is invalid"),
  /** A token_hash (a link) that matches nothing or has expired: GoTrue's verifyTokenHash wording. */
  emailLinkExpired: () => new AuthError(403, "otp_expired", "Email link is invalid or has expired"),
  /** A banned user's link or code (GoTrue's verify answers 403, where a password sign-in answers 400). */
  userBannedVerify: () => new AuthError(403, "user_banned", "User is banned"),
  badCodeVerifier: () =>
    new AuthError(400, "bad_code_verifier", "code challenge does not match previously saved code verifier"),
  flowStateNotFound: () => new AuthError(404, "flow_state_not_found", "invalid flow state, no valid flow state found"),
  unsupportedGrant: () => new AuthError(400, "validation_failed", "unsupported_grant_type"),
  // Second factors (GoTrue's mfa.go).
  factorNotFound: () => new AuthError(404, "mfa_factor_not_found", "Factor not found"),
  badFactorId: () => new AuthError(404, "validation_failed", "factor_id must be an UUID"),
  factorNameConflict: (name: string) =>
    new AuthError(
      422,
      "mfa_factor_name_conflict",
      `A factor with the friendly name "${name}" for this user already exists`,
    ),
  tooManyFactors: () =>
    new AuthError(
      422,
      "too_many_enrolled_mfa_factors",
      "Maximum number of verified factors reached, unenroll to continue",
    ),
  insufficientAal: (message: string, status = 403) => new AuthError(status, "insufficient_aal", message),
  aal2ForUpdate: () =>
    new AuthError(401, "insufficient_aal", "AAL2 session is required to update email or password when MFA is enabled."),
  challengeNotFound: () =>
    new AuthError(422, "mfa_factor_not_found", "MFA factor with the provided challenge ID not found"),
  challengeAddressMismatch: () =>
    new AuthError(422, "mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch."),
  challengeExpired: (id: string) =>
    new AuthError(
      422,
      "mfa_challenge_expired",
      `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
    ),
  invalidTotp: () => new AuthError(422, "mfa_verification_failed", "Invalid TOTP code entered"),
  verificationRejected: (message: string) => new AuthError(403, "mfa_verification_rejected", message),
  unexpected: (message = "Unexpected failure, please check server logs for more information") =>
    new AuthError(500, "unexpected_failure", message),
};

/**
 * GoTrue's password policy ([auth] minimum_password_length and password_requirements): the fewest characters, and
 * which kinds of character each password must hold.
 */
export interface PasswordPolicy {
  minLength: number;
  requirements: "" | "letters_digits" | "lower_upper_letters_digits" | "lower_upper_letters_digits_symbols";
}

/** LabCash's policy, kept as the default (docs/decisions/014): 8+ characters with a lower-case letter, an upper-case letter and a digit. */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 8, requirements: "lower_upper_letters_digits" };

// The character sets GoTrue names in its message, per requirement (its PasswordRequiredCharacters).
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const SYMBOLS = "!@#$%^&*()_+-=[]{};'\\:\"|<>?,./`~";
const REQUIRED_SETS: Record<PasswordPolicy["requirements"], string[]> = {
  "": [],
  letters_digits: [LOWER + UPPER, DIGITS],
  lower_upper_letters_digits: [LOWER, UPPER, DIGITS],
  lower_upper_letters_digits_symbols: [LOWER, UPPER, DIGITS, SYMBOLS],
};

/** GoTrue's password-strength check and messages (joined with a space as GoTrue joins them). */
export function checkPasswordStrength(password: string, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): void {
  const reasons: string[] = [];
  const messages: string[] = [];
  if ([...password].length < policy.minLength) {
    reasons.push("length");
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  }
  const sets = REQUIRED_SETS[policy.requirements];
  if (sets.some((set) => ![...password].some((c) => set.includes(c)))) {
    reasons.push("characters");
    messages.push(`Password should contain at least one character of each: ${sets.join(", ")}.`);
  }
  if (reasons.length) {
    throw new AuthError(422, "weak_password", messages.join(" "), { weak_password: { reasons } });
  }
  // bcrypt ignores everything after 72 bytes; GoTrue refuses such passwords rather than truncate.
  if (Buffer.byteLength(password) > 72) {
    throw authErrors.validation("Password cannot be longer than 72 characters", 422);
  }
}
