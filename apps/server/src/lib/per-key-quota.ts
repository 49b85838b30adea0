// At most `max` uses per key (e.g. a session) in a window of time that starts at the key's first use, counted in this
// process. For where @fastify/rate-limit cannot decide: it counts every request before the handler runs, and some
// requests of a route (a repeated alert post) must not count.
interface Use {
  count: number;
  /** The window ends at this time (ms since the epoch). */
  until: number;
}

export class PerKeyQuota {
  private readonly uses = new Map<string, Use>();
  private nextSweep = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one use of `key` and answers true, or answers false (counting nothing) when its quota is spent. */
  take(key: string, now = Date.now()): boolean {
    this.sweep(now);
    let use = this.uses.get(key);
    if (!use || use.until <= now) {
      use = { count: 0, until: now + this.windowMs };
      this.uses.set(key, use);
    }
    if (use.count >= this.max) return false;
    use.count++;
    return true;
  }

  /** Whole seconds until `key` may use its quota again (a 429's Retry-After). */
  secondsUntilReset(key: string, now = Date.now()): number {
    const until = this.uses.get(key)?.until ?? now;
    return Math.max(0, Math.ceil((until - now) / 1000));
  }

  /** Forgets ended windows once per window length, so the map holds only keys used lately. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.windowMs;
    for (const [key, use] of this.uses) if (use.until <= now) this.uses.delete(key);
  }
}
