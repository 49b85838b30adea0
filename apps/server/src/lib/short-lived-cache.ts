// A per-process cache for answers that rarely change but are asked on hot paths (list totals, session lookups).
// `invalidate()` after a write commits drops every entry; a load that started before an invalidation is never kept,
// so an answer read before a concurrent write cannot outlive it. Entries also expire, which bounds how long a write
// made by another process (which cannot invalidate this one) goes unseen.
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private generation = 0;

  constructor(private readonly ttlMs: number) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  /**
   * The cached value, or the loader's. `keep` decides whether a loaded value is cached (e.g. only live sessions),
   * and `expiresAt` can shorten its life below the TTL.
   */
  async get(
    key: string,
    load: () => Promise<V>,
    options: { keep?: (value: V) => boolean; expiresAt?: (value: V) => number } = {},
  ): Promise<V> {
    const cached = this.entries.get(key);
    if (cached && cached.until > Date.now()) return cached.value;
    const startedIn = this.generation;
    const value = await load();
    if (startedIn === this.generation && (options.keep?.(value) ?? true)) {
      const until = Math.min(Date.now() + this.ttlMs, options.expiresAt?.(value) ?? Infinity);
      this.entries.set(key, { value, until });
    }
    return value;
  }
}
