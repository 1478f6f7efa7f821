// Time-based one-time passwords (RFC 6238) as GoTrue makes them with pquerna/otp: a 20-byte secret
// in unpadded base32, HMAC-SHA1, six digits, 30-second steps, and one step of clock skew either way
// when checking a code. The arithmetic is otpauth's (a maintained RFC 4226/6238 implementation); this
// file only fixes GoTrue's parameters. Authenticator apps and the tests compute the same codes.
import { Secret, TOTP } from "otpauth";

const TOTP_PARAMETERS = { algorithm: "SHA1", digits: 6, period: 30 } as const;

/** A new shared secret: 20 random bytes, base32 without padding (32 characters). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The code an authenticator shows for `secret` at `unixSeconds`. */
export function totpCode(secret: string, unixSeconds = Date.now() / 1000): string {
  return TOTP.generate({ ...TOTP_PARAMETERS, secret: Secret.fromBase32(secret), timestamp: unixSeconds * 1000 });
}

/** True when `code` is the code of the current step or the one either side (GoTrue's Skew: 1). */
export function totpMatches(secret: string, code: string, unixSeconds = Date.now() / 1000): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const delta = TOTP.validate({
    ...TOTP_PARAMETERS,
    secret: Secret.fromBase32(secret),
    token: code,
    timestamp: unixSeconds * 1000,
    window: 1,
  });
  return delta !== null;
}

/**
 * The otpauth:// URI a QR code carries, byte for byte as GoTrue's (pquerna/otp's key.URL(): Go's sorted query).
 * otpauth's own `toString()` orders and escapes differently, and the embedded backend answers as GoTrue does.
 */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`).replace(/%3A/g, ":").replace(/%40/g, "@");
  const query = new URLSearchParams({ algorithm: "SHA1", digits: "6", issuer, period: "30", secret });
  return `otpauth://totp/${label}?${query}`;
}
