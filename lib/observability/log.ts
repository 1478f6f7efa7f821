// Structured logs: one JSON line per event, with the request id when there is one, so a platform's log
// search (Vercel's, or anything reading stdout) can filter by field. Nothing secret is ever written:
// fields whose name says they hold a secret are replaced, and text is scrubbed of what looks like a
// token, a key or a card number wherever it came from (an error message may quote a header or a body).

export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

const SECRET_NAME =
  /pass(word)?|secret|token|authori[sz]ation|cookie|api[-_]?key|^key$|card|cvc|cvv|^pan$|otp|seed|signature|code_verifier|nonce/i;

const SCRUBS: [RegExp, string][] = [
  // Card numbers: 13 to 19 digits, optionally grouped by spaces or dashes.
  [/\b(?:\d[ -]?){12,18}\d\b/g, "[number removed]"],
  // JSON web tokens (Supabase access tokens).
  [/\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g, "[token removed]"],
  // Supabase, Stripe and webhook keys.
  [/\b(?:sb_secret|sb_publishable|sk_live|sk_test|rk_live|rk_test|whsec|sbp)_[\w-]{6,}/g, "[key removed]"],
  [/\bBearer\s+[\w.~+/=-]+/gi, "Bearer [removed]"],
  // user:password@ in a connection string.
  [/(\w+:\/\/[^:/\s]+:)[^@\s]+@/g, "$1[removed]@"],
];

/** Text with tokens, keys, card numbers and passwords in URLs taken out. */
export function scrub(text: string): string {
  return SCRUBS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrub(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 4) return "[nested]";
  if (value instanceof Error) {
    const err = value as Error & { code?: unknown; hint?: unknown; digest?: unknown };
    return clean(
      {
        name: err.name,
        message: err.message,
        ...(err.code !== undefined ? { code: err.code } : {}),
        ...(err.hint !== undefined ? { hint: err.hint } : {}),
        ...(err.digest !== undefined ? { digest: err.digest } : {}),
        stack: err.stack?.split("\n").slice(0, 8).join("\n"),
      },
      depth + 1,
    );
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => clean(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, namesSecret(k) ? "[redacted]" : clean(v, depth + 1)]),
  );
}

/** Whether a field or header name says it holds a secret (its value is never written anywhere). */
export const namesSecret = (name: string): boolean => SECRET_NAME.test(name);

/** A value as a log line would write it: secret-named fields redacted at any depth, text scrubbed. */
export const redact = (value: unknown): unknown => clean(value, 0);

/** The one line an event is logged as (exported for the tests). */
export function logLine(level: LogLevel, event: string, fields: LogFields = {}): string {
  return JSON.stringify({ time: new Date().toISOString(), level, event, ...(redact(fields) as LogFields) });
}

/** Writes one JSON line: errors and warnings to stderr, the rest to stdout. */
export function log(level: LogLevel, event: string, fields: LogFields = {}): void {
  const line = logLine(level, event, fields);
  if (level === "info") console.log(line);
  else console.error(line);
}
