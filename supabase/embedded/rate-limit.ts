// GoTrue's rate limits (issue "Hardening" 4), counted in memory per window: sign-ins and sign-ups,
// token refreshes and verifications per client IP; auth e-mail per project per hour and per address
// (GoTrue's SMTP max frequency). Over a limit GoTrue answers 429 `over_request_rate_limit` or
// `over_email_send_rate_limit`, and so does this.

export interface RateLimits {
  /** Password sign-ins and sign-ups per IP per five minutes (GoTrue RATE_LIMIT_SIGN_IN_SIGN_UPS: 30). */
  signInsPerFiveMinutes: number;
  /** Token refreshes per IP per five minutes (GoTrue RATE_LIMIT_TOKEN_REFRESH: 150). */
  refreshesPerFiveMinutes: number;
  /** OTP and link verifications per IP per five minutes (GoTrue RATE_LIMIT_VERIFY: 30). */
  verificationsPerFiveMinutes: number;
  /** Auth e-mails (confirmation, recovery, e-mail change) per hour, all addresses (GoTrue RATE_LIMIT_EMAIL_SENT: 30). */
  emailsPerHour: number;
  /** Seconds before another e-mail to the same address (GoTrue SMTP_MAX_FREQUENCY: 60). */
  emailSecondsApart: number;
  /** Second-factor challenges and verifications per IP per minute (GoTrue MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: 15). */
  factorAttemptsPerMinute: number;
}

export const GOTRUE_RATE_LIMITS: RateLimits = {
  signInsPerFiveMinutes: 30,
  refreshesPerFiveMinutes: 150,
  verificationsPerFiveMinutes: 30,
  emailsPerHour: 30,
  emailSecondsApart: 60,
  factorAttemptsPerMinute: 15,
};

/** No limits: for test servers that sign hundreds of users in from one address. */
export const NO_RATE_LIMITS: RateLimits = {
  signInsPerFiveMinutes: Infinity,
  refreshesPerFiveMinutes: Infinity,
  verificationsPerFiveMinutes: Infinity,
  emailsPerHour: Infinity,
  emailSecondsApart: 0,
  factorAttemptsPerMinute: Infinity,
};

const MINUTE = 60_000;
const FIVE_MINUTES = 5 * MINUTE;
const HOUR = 60 * 60_000;

export type LimitedAction = "sign_in" | "refresh" | "verify" | "factor";

/** Fixed windows per key; old windows are dropped as new ones start, so memory stays small. */
export class RateLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  private readonly lastEmailAt = new Map<string, number>();

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request of `action` from `ip`; false when over the limit (nothing is counted then). */
  allow(action: LimitedAction, ip: string): boolean {
    if (action === "factor") return this.count(`factor:${ip}`, this.limits.factorAttemptsPerMinute, MINUTE);
    const limit = {
      sign_in: this.limits.signInsPerFiveMinutes,
      refresh: this.limits.refreshesPerFiveMinutes,
      verify: this.limits.verificationsPerFiveMinutes,
    }[action];
    return this.count(`${action}:${ip}`, limit, FIVE_MINUTES);
  }

  /**
   * Whether an e-mail to `address` may go now: "ok" (and it is counted), "too_soon" (the same
   * address within emailSecondsApart) or "over_hourly" (the project's hourly allowance is spent).
   */
  allowEmail(address: string): "ok" | "too_soon" | "over_hourly" {
    const now = this.now();
    const last = this.lastEmailAt.get(address);
    if (last !== undefined && now - last < this.limits.emailSecondsApart * 1000) return "too_soon";
    if (!this.count("email", this.limits.emailsPerHour, HOUR)) return "over_hourly";
    this.lastEmailAt.set(address, now);
    if (this.lastEmailAt.size > 10_000) this.prune(now);
    return "ok";
  }

  /** Seconds until `address` may be mailed again. */
  secondsUntilEmail(address: string): number {
    const last = this.lastEmailAt.get(address) ?? 0;
    return Math.max(1, Math.ceil((last + this.limits.emailSecondsApart * 1000 - this.now()) / 1000));
  }

  private count(key: string, limit: number, windowMs: number): boolean {
    if (limit === Infinity) return true;
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || now - window.startedAt >= windowMs) {
      this.windows.set(key, { startedAt: now, count: 1 });
      if (this.windows.size > 10_000) this.prune(now);
      return limit >= 1;
    }
    if (window.count >= limit) return false;
    window.count += 1;
    return true;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.startedAt >= HOUR) this.windows.delete(key);
    for (const [address, at] of this.lastEmailAt)
      if (now - at >= this.limits.emailSecondsApart * 1000) this.lastEmailAt.delete(address);
  }
}
