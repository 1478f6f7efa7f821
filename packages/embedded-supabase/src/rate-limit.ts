// GoTrue's rate limits, per visitor. Each limit is a token bucket, as GoTrue's
// are (tollbooth): a visitor who has been idle may burst up to `burst` requests, then the bucket refills
// at the limit's steady rate, so nobody's window "resets everyone at once". Sign-ins and sign-ups, token
// refreshes, verifications, e-mail sign-in codes and second-factor attempts are counted per visitor
// address (the forwarded one, see callers.ts visitorAddress); auth e-mail per address and per visitor, never
// per project (a handful of visitors could spend a project pool and stop mail to everyone). Over a limit GoTrue answers 429 `over_request_rate_limit` or `over_email_send_rate_limit`,
// and so does this.
//
// Two further limits GoTrue leaves to hooks are per account, so no visitor can spend another's:
// wrong passwords slow the account for the visitor who typed them (a growing cool-down for that visitor,
// and a short delay before every wrong answer for the account), and wrong second-factor codes void a
// challenge after `wrongCodesPerChallenge` and cool down the visitor who typed them on that factor, never
// the factor itself: the owner's right code from elsewhere always counts. The factor's ceiling across
// visitors (wrong codes a day) is the app's MFA verification attempt hook's (mfa.ts calls it, as GoTrue does).

export interface RateLimits {
  /** Password sign-ins and sign-ups per visitor per five minutes (GoTrue RATE_LIMIT_SIGN_IN_SIGN_UPS: 30). */
  signInsPerFiveMinutes: number;
  /** Token refreshes per visitor per five minutes (GoTrue RATE_LIMIT_TOKEN_REFRESH: 150). */
  refreshesPerFiveMinutes: number;
  /** OTP and link verifications per visitor per five minutes (GoTrue RATE_LIMIT_VERIFY: 30). */
  verificationsPerFiveMinutes: number;
  /** E-mail sign-in requests (POST /otp) per visitor per hour (GoTrue RATE_LIMIT_OTP: 30). */
  otpRequestsPerHour: number;
  /** The most requests a rested visitor may make at once before the steady rate applies (GoTrue: 30). */
  burst: number;
  /** Auth e-mail requests one visitor may make per hour, of each kind (to accounts, to new addresses). */
  emailsPerVisitorPerHour: number;
  /** Seconds before another e-mail to the same address (GoTrue SMTP_MAX_FREQUENCY: 60). */
  emailSecondsApart: number;
  /** Second-factor challenges and verifications per visitor per minute (GoTrue MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: 15). */
  factorAttemptsPerMinute: number;
  /** Wrong codes a challenge takes before it is void (a new challenge is needed). */
  wrongCodesPerChallenge: number;
  /** Wrong codes in a row from one visitor on one factor before that visitor waits (30 s, doubling, at most 15 minutes). */
  wrongCodesBeforeCoolDown: number;
  /** Wrong passwords in a row from one visitor for one account before that visitor waits (2 s, doubling, at most 15 minutes). */
  wrongPasswordsBeforeCoolDown: number;
  /** Wrong passwords for one account, from anyone, before each further wrong answer is held back (a quarter second more each, at most 2 s). */
  wrongPasswordsBeforeDelay: number;
  /** Auth e-mails (each carries a code) to one address per hour, whoever asks (stricter than GoTrue, which has none). */
  emailsPerAddressPerHour: number;
  /** Wrong e-mailed codes for one address, from anyone, before its outstanding codes are void (GoTrue has no such limit). */
  wrongEmailCodesBeforeVoid: number;
}

export const GOTRUE_RATE_LIMITS: RateLimits = {
  signInsPerFiveMinutes: 30,
  refreshesPerFiveMinutes: 150,
  verificationsPerFiveMinutes: 30,
  otpRequestsPerHour: 30,
  burst: 30,
  emailsPerVisitorPerHour: 5,
  emailSecondsApart: 60,
  factorAttemptsPerMinute: 15,
  wrongCodesPerChallenge: 5,
  wrongCodesBeforeCoolDown: 5,
  wrongPasswordsBeforeCoolDown: 5,
  wrongPasswordsBeforeDelay: 3,
  emailsPerAddressPerHour: 5,
  wrongEmailCodesBeforeVoid: 5,
};

/** No limits: for test servers that sign hundreds of users in from one address. */
export const NO_RATE_LIMITS: RateLimits = {
  signInsPerFiveMinutes: Infinity,
  refreshesPerFiveMinutes: Infinity,
  verificationsPerFiveMinutes: Infinity,
  otpRequestsPerHour: Infinity,
  burst: Infinity,
  emailsPerVisitorPerHour: Infinity,
  emailSecondsApart: 0,
  factorAttemptsPerMinute: Infinity,
  wrongCodesPerChallenge: Infinity,
  wrongCodesBeforeCoolDown: Infinity,
  wrongPasswordsBeforeCoolDown: Infinity,
  wrongPasswordsBeforeDelay: Infinity,
  emailsPerAddressPerHour: Infinity,
  wrongEmailCodesBeforeVoid: Infinity,
};

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const FIVE_MINUTES = 5 * MINUTE;
const HOUR = 60 * MINUTE;
const LONGEST_COOL_DOWN = 15 * MINUTE;
/** How long a run of wrong answers is remembered when none follows. */
const FAILURES_FORGOTTEN_AFTER = HOUR;
/** The longest a wrong password's answer is held back for the account's sake. */
const LONGEST_WRONG_PASSWORD_DELAY = 2 * SECOND;

export type LimitedAction = "sign_in" | "refresh" | "verify" | "otp" | "factor";

/** Auth e-mail to existing accounts, or to new addresses (sign-ups): each has its own allowance per visitor. */
export type EmailPool = "account" | "signup";

/** Why an e-mail may not go now, and when it may. */
export type EmailVerdict =
  | { ok: true }
  | {
      ok: false;
      reason: "too_soon" | "address_allowance" | "visitor_allowance";
      retryAfterSeconds: number;
    };

interface FailureRun {
  failures: number;
  lastAt: number;
  coolUntil: number;
}

/** A limit as a bucket: `perWindow` requests every `windowMs` (at most an hour), with bursts up to `burst`. */
export interface Rate {
  perWindow: number;
  windowMs: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets by key (a limit's name and a visitor), in memory. The auth server's limits below use them,
 * and so does the app for limits of its own (the help assistant's AI calls, lib/assistant/phrase.ts).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private prunedAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Takes one token from `key`'s bucket; false (and nothing taken) when it holds less than one. */
  take(key: string, rate: Rate): boolean {
    if (rate.perWindow === Infinity) return true;
    const tokens = this.level(key, rate);
    if (tokens < 1) return false;
    this.buckets.set(key, { tokens: tokens - 1, updatedAt: this.now() });
    if (this.buckets.size > 10_000) this.prune();
    return true;
  }

  /** Seconds until the bucket holds a whole token; 0 when it does now. */
  waitFor(key: string, rate: Rate): number {
    if (rate.perWindow === Infinity) return 0;
    const missing = 1 - this.level(key, rate);
    return missing <= 0 ? 0 : Math.max(1, Math.ceil((missing * rate.windowMs) / rate.perWindow / SECOND));
  }

  /** The bucket's tokens now: what it held, plus the refill since, up to its capacity. */
  private level(key: string, rate: Rate): number {
    const capacity = Math.min(rate.burst, rate.perWindow);
    const bucket = this.buckets.get(key);
    if (!bucket) return capacity;
    const refilled = ((this.now() - bucket.updatedAt) * rate.perWindow) / rate.windowMs;
    return Math.min(capacity, bucket.tokens + refilled);
  }

  /**
   * Forgets buckets untouched for an hour: full again by then, as no window is longer. At most once a minute,
   * so a flood of new keys cannot make every request scan the map.
   */
  private prune(): void {
    const now = this.now();
    if (now - this.prunedAt < MINUTE) return;
    this.prunedAt = now;
    for (const [key, bucket] of this.buckets) if (now - bucket.updatedAt >= HOUR) this.buckets.delete(key);
  }
}

export class RateLimiter {
  private readonly buckets: TokenBuckets;
  private readonly lastEmailAt = new Map<string, number>();
  private readonly runs = new Map<string, FailureRun>();
  private readonly wrongCodes = new Map<string, { count: number; lastAt: number }>();
  private prunedAt = 0;

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.buckets = new TokenBuckets(now);
  }

  /** Takes one request of `action` from `visitor`; false when that visitor is over the limit. */
  allow(action: LimitedAction, visitor: string): boolean {
    return this.buckets.take(`${action}:${visitor}`, this.rateOf(action));
  }

  /**
   * Whether a request for an auth e-mail to `address`, from `visitor`, may go on, decided before anyone looks the
   * address up, so the answer is the same whether or not an account uses it. When it may, the request is counted
   * against the address (one per emailSecondsApart, emailsPerAddressPerHour) and against the visitor's allowance of
   * each kind in `pools`. Nothing is counted when it may not go. There is no project-wide allowance: any such pool
   * is spent by a handful of visitors (each spending their own allowances on addresses of their own), after which
   * nobody's reset or inbox code would go; the project's mail is bounded by the visitors asking (each a few an hour,
   * per /64 for IPv6) and the addresses asked for (a few an hour each), and past a few a visitor the CAPTCHA asks
   * whether they are one person (the site's forms; GoTrue's captcha for direct callers).
   */
  allowEmail(address: string, visitor: string, pools: readonly EmailPool[]): EmailVerdict {
    const now = this.now();
    const last = this.lastEmailAt.get(address);
    const apart = this.limits.emailSecondsApart * SECOND;
    if (last !== undefined && now - last < apart)
      return { ok: false, reason: "too_soon", retryAfterSeconds: Math.ceil((last + apart - now) / SECOND) };
    const addressRate = this.hourly(this.limits.emailsPerAddressPerHour);
    const visitorRate = this.hourly(this.limits.emailsPerVisitorPerHour);
    const addressWait = this.buckets.waitFor(`email-to:${address}`, addressRate);
    if (addressWait > 0) return { ok: false, reason: "address_allowance", retryAfterSeconds: addressWait };
    for (const pool of pools) {
      const visitorWait = this.buckets.waitFor(`email:${pool}:${visitor}`, visitorRate);
      if (visitorWait > 0) return { ok: false, reason: "visitor_allowance", retryAfterSeconds: visitorWait };
    }
    this.buckets.take(`email-to:${address}`, addressRate);
    for (const pool of pools) this.buckets.take(`email:${pool}:${visitor}`, visitorRate);
    this.lastEmailAt.set(address, now);
    if (this.lastEmailAt.size > 10_000) this.prune(now);
    return { ok: true };
  }

  /** Seconds `visitor` must still wait before trying `account`'s password again; 0 when they may now. */
  passwordCoolDown(account: string, visitor: string): number {
    const run = this.runs.get(`password:${account}:${visitor}`);
    return run ? Math.max(0, Math.ceil((run.coolUntil - this.now()) / SECOND)) : 0;
  }

  /**
   * Records a sign-in's outcome for `account` from `visitor`. A wrong password past the allowance cools
   * that visitor down on that account; a right one clears their run. Answers how long to hold back the
   * wrong answer: every visitor's wrong guesses at an account slow down as they add up (at most two
   * seconds), while the right password is never held back, so no one else's guessing keeps its owner out.
   */
  recordPassword(account: string, visitor: string, succeeded: boolean): number {
    const key = `password:${account}:${visitor}`;
    if (succeeded) {
      this.runs.delete(key);
      return 0;
    }
    this.fail(key, this.limits.wrongPasswordsBeforeCoolDown, 2 * SECOND);
    const accountRun = this.fail(`password:${account}`, Infinity, 0);
    const beyond = accountRun.failures - this.limits.wrongPasswordsBeforeDelay;
    return beyond > 0 ? Math.min(LONGEST_WRONG_PASSWORD_DELAY, beyond * 250) : 0;
  }

  /** Seconds before `factor` takes another code from `visitor`; 0 when it may now. */
  factorCoolDown(factor: string, visitor: string): number {
    const run = this.runs.get(`factor:${factor}:${visitor}`);
    return run ? Math.max(0, Math.ceil((run.coolUntil - this.now()) / SECOND)) : 0;
  }

  /**
   * Records `visitor`'s wrong code against a challenge of a factor: past the allowance that visitor cools
   * down on the factor. Answers true when the challenge has now had its allowance and is void.
   */
  recordWrongCode(factor: string, visitor: string, challenge: string): boolean {
    this.fail(`factor:${factor}:${visitor}`, this.limits.wrongCodesBeforeCoolDown, 30 * SECOND);
    const now = this.now();
    const wrong = (this.wrongCodes.get(challenge)?.count ?? 0) + 1;
    this.wrongCodes.set(challenge, { count: wrong, lastAt: now });
    if (this.wrongCodes.size > 10_000) this.prune(now);
    return wrong >= this.limits.wrongCodesPerChallenge;
  }

  /** A right code: `visitor`'s run of wrong ones on the factor is over. */
  recordRightCode(factor: string, visitor: string, challenge: string): void {
    this.runs.delete(`factor:${factor}:${visitor}`);
    this.wrongCodes.delete(challenge);
  }

  private rateOf(action: LimitedAction): Rate {
    const { limits } = this;
    switch (action) {
      case "sign_in":
        return { perWindow: limits.signInsPerFiveMinutes, windowMs: FIVE_MINUTES, burst: limits.burst };
      case "refresh":
        return { perWindow: limits.refreshesPerFiveMinutes, windowMs: FIVE_MINUTES, burst: limits.burst };
      case "verify":
        return { perWindow: limits.verificationsPerFiveMinutes, windowMs: FIVE_MINUTES, burst: limits.burst };
      case "otp":
        return this.hourly(limits.otpRequestsPerHour);
      case "factor":
        return { perWindow: limits.factorAttemptsPerMinute, windowMs: MINUTE, burst: limits.burst };
    }
  }

  private hourly(perHour: number): Rate {
    return { perWindow: perHour, windowMs: HOUR, burst: this.limits.burst };
  }

  /** One more failure in `key`'s run; past `allowance` in a row, the run cools down for `firstCoolDownMs`, doubling. */
  private fail(key: string, allowance: number, firstCoolDownMs: number): FailureRun {
    const now = this.now();
    const previous = this.runs.get(key);
    const run =
      previous && now - previous.lastAt < FAILURES_FORGOTTEN_AFTER
        ? previous
        : { failures: 0, lastAt: now, coolUntil: 0 };
    run.failures += 1;
    run.lastAt = now;
    if (run.failures >= allowance) {
      const doublings = Math.min(20, run.failures - allowance);
      run.coolUntil = now + Math.min(LONGEST_COOL_DOWN, firstCoolDownMs * 2 ** doublings);
    }
    this.runs.set(key, run);
    if (this.runs.size > 10_000) this.prune(now);
    return run;
  }

  /**
   * Forgets what can no longer matter (the buckets forget by themselves): e-mail gaps that have passed, runs
   * over an hour old and cooled down, challenges (which live five minutes) untouched for an hour. At most once
   * a minute, so a flood of new keys cannot make every request scan the maps.
   */
  private prune(now: number): void {
    if (now - this.prunedAt < MINUTE) return;
    this.prunedAt = now;
    for (const [address, at] of this.lastEmailAt)
      if (now - at >= this.limits.emailSecondsApart * SECOND) this.lastEmailAt.delete(address);
    for (const [key, run] of this.runs)
      if (now - run.lastAt >= FAILURES_FORGOTTEN_AFTER && now >= run.coolUntil) this.runs.delete(key);
    for (const [challenge, wrong] of this.wrongCodes) if (now - wrong.lastAt >= HOUR) this.wrongCodes.delete(challenge);
  }
}
