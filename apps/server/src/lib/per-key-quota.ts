// At most `max` uses per key (e.g. a session) in each fixed window of time, counted in this process. Used where
// @fastify/rate-limit cannot decide: it counts every request before the handler runs, and some requests of a route
// (a repeated alert post) must not count. Fixed windows, like @fastify/rate-limit's: a key may use up to twice `max`
// across a window's edge.
export class PerKeyQuota {
  private readonly used = new Map<string, number>();
  private window = -1;

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one use of `key` and answers true, or answers false (counting nothing) when its quota is spent. */
  take(key: string, now = Date.now()): boolean {
    const window = Math.floor(now / this.windowMs);
    // A new window forgets every key at once: the map never holds more than one window's keys.
    if (window !== this.window) {
      this.window = window;
      this.used.clear();
    }
    const used = this.used.get(key) ?? 0;
    if (used >= this.max) return false;
    this.used.set(key, used + 1);
    return true;
  }

  /** Whole seconds until the current window ends (a 429's Retry-After). */
  secondsToNextWindow(now = Date.now()): number {
    return Math.ceil((this.windowMs - (now % this.windowMs)) / 1000);
  }
}
