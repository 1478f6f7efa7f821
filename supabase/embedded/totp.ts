// Time-based one-time passwords (RFC 6238) as GoTrue makes them with pquerna/otp: a 20-byte secret
// in unpadded base32, HMAC-SHA1, six digits, 30-second steps, and one step of clock skew either way
// when checking a code. Authenticator apps and the tests compute the same codes from the secret.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const STEP_SECONDS = 30;
const DIGITS = 6;

function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = ALPHABET.indexOf(char);
    if (index < 0) throw new Error("the secret is not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 20 random bytes, base32 without padding (32 characters). */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The code an authenticator shows for `secret` at `unixSeconds`. */
export function totpCode(secret: string, unixSeconds = Date.now() / 1000): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / STEP_SECONDS)));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, "0");
}

/** True when `code` is the code of the current step or the one either side (GoTrue's Skew: 1). */
export function totpMatches(secret: string, code: string, unixSeconds = Date.now() / 1000): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  let matched = false;
  for (const skew of [-1, 0, 1]) {
    const expected = Buffer.from(totpCode(secret, unixSeconds + skew * STEP_SECONDS));
    // Every step is compared, so the time taken does not say which one matched.
    if (timingSafeEqual(expected, Buffer.from(code))) matched = true;
  }
  return matched;
}

/** The otpauth:// URI a QR code carries (pquerna/otp's key.URL()). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`).replace(/%3A/g, ":").replace(/%40/g, "@");
  const query = new URLSearchParams({ algorithm: "SHA1", digits: "6", issuer, period: "30", secret });
  return `otpauth://totp/${label}?${query}`;
}
