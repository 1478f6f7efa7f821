// Byte helpers on WebCrypto only, so the same code runs in the visitor's browser (the draw and spin
// verifiers) and in Node (the tests). Used by lib/draws/verify.ts and lib/spinner/derive.ts.

export type Bytes = Uint8Array<ArrayBuffer>;

const TWO_POW_48 = 2 ** 48;

export function hexToBytes(hex: string): Bytes {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error("Not a hex string of whole bytes");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return hex;
}

export function concat(...parts: Uint8Array[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function sha256(data: Uint8Array | string): Promise<Bytes> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : concat(data);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** An HMAC-SHA256 signing key from raw bytes (the spinner's server seed, a competition's draw seed). */
export function hmacSha256Key(key: Bytes): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The first 6 bytes as an unsigned big-endian integer (48 bits: exact in a JS number). */
export function first48Bits(bytes: Uint8Array): number {
  if (bytes.length < 6) throw new Error("Need at least 6 bytes");
  let x = 0;
  for (let i = 0; i < 6; i++) x = x * 256 + bytes[i];
  return x;
}

/**
 * Rejection sampling without modulo bias: a 48-bit `x` is accepted when it is below the largest multiple
 * of `n` that fits in 2^48, giving x mod n (0 ≤ result < n); otherwise null, and the caller derives again.
 */
export function uniformBelow(x: number, n: number): number | null {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error("The range needs a whole number of at least 1");
  const limit = TWO_POW_48 - (TWO_POW_48 % n);
  return x < limit ? x % n : null;
}
