// Wrong e-mailed codes, counted per address from every visitor together. GoTrue counts a code's guesses only in
// its per-visitor verify bucket, so many visitors together may guess one address's code; this server is
// stricter: after `wrongBeforeVoid` wrong codes for an address, whoever typed them, that address's outstanding
// codes are void (auth.ts clears them) until a new one is sent. New codes per address are limited too
// (rate-limit.ts allowEmail), so an attacker who asks for fresh codes gains a few more guesses an hour at most.

const HOUR = 3_600_000;

interface WrongCodes {
  count: number;
  lastAt: number;
}

export class EmailCodeGuard {
  private readonly wrong = new Map<string, WrongCodes>();
  private prunedAt = 0;

  constructor(
    private readonly wrongBeforeVoid: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when `address` has had its allowance of wrong codes since its last code was sent. */
  isVoid(address: string): boolean {
    return (this.wrong.get(address)?.count ?? 0) >= this.wrongBeforeVoid;
  }

  /** One more wrong code for `address`; true when that makes its outstanding codes void. */
  recordWrong(address: string): boolean {
    const now = this.now();
    const count = (this.wrong.get(address)?.count ?? 0) + 1;
    this.wrong.set(address, { count, lastAt: now });
    if (this.wrong.size > 10_000) this.prune(now);
    return count === this.wrongBeforeVoid;
  }

  /** A new code went to `address` (or its code was right): it starts with a full allowance. */
  reset(address: string): void {
    this.wrong.delete(address);
  }

  /**
   * Forgets counts untouched for an hour (every code is long expired by then, and a void one was cleared). At
   * most once a minute, so a flood of new addresses cannot make every request scan the map.
   */
  private prune(now: number): void {
    if (now - this.prunedAt < 60_000) return;
    this.prunedAt = now;
    for (const [address, wrong] of this.wrong) if (now - wrong.lastAt >= HOUR) this.wrong.delete(address);
  }
}
