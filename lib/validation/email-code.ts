// Kept apart from the zod schemas (./auth.ts) so the sign-in forms can show these without loading zod in the
// browser: zod's first parse tries `new Function`, which the strict CSP reports as an eval.

/**
 * Digits in an e-mailed code: supabase/config.toml's [auth.email] otp_length, which the embedded backend is given
 * too (supabase/embedded.ts EMAIL_OTP; a test holds them equal). Authenticator apps' codes stay six digits.
 */
export const EMAIL_CODE_LENGTH = 8;
/** How long an e-mailed code works, in words (config.toml's otp_expiry: 600 seconds). */
export const EMAIL_CODE_LIFE = "10 minutes";
