// A per-process cache for answers that rarely change but are asked on hot paths (list totals, session lookups).
// - `invalidate()` after a write commits drops every entry; a load that started before an invalidation is never kept,
//   so an answer read before a concurrent write cannot outlive it.
// - No entry is answered once it is older than `maxAgeMs`, which bounds how long a write made by another process
//   (which cannot invalidate this one) goes unseen.
// - Concurrent misses of one key share one load, so an entry expiring under 50 waiting requests costs one query.
// - With `refreshAfterMs`, a request for an entry older than that still gets the cached answer at once and starts one
//   reload in the background: busy keys are renewed before they expire, and no wave of requests waits for a reload.
const MAX_ENTRIES = 1_000;

interface Entry<V> {
  value: V;
  /** Never answered after this (ms since the epoch). */
  until: number;
  /** Reloaded in the background from this time on. */
  refreshAt: number;
}

export interface GetOptions<V> {
  /** Whether a loaded value is cached at all (e.g. only live sessions). */
  keep?: (value: V) => boolean;
  /** Shortens an entry's life below `maxAgeMs` (e.g. a session's own expiry). */
  expiresAt?: (value: V) => number;
}

export class ShortLivedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly options: { refreshAfterMs?: number } = {},
  ) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    // Requests arriving after the write must not join a load that may have read the state before it.
    this.loading.clear();
  }

  /** The cached value, or the loader's. */
  get(key: string, load: () => Promise<V>, options: GetOptions<V> = {}): Promise<V> {
    const cached = this.entries.get(key);
    const pending = this.loading.get(key);
    if (cached && cached.until > Date.now()) {
      if (cached.refreshAt <= Date.now() && !pending) {
        // A failed reload reaches the next caller that has to wait for a load, not this one.
        this.load(key, load, options).catch(() => undefined);
      }
      return Promise.resolve(cached.value);
    }
    return pending ?? this.load(key, load, options);
  }

  private load(key: string, load: () => Promise<V>, options: GetOptions<V>): Promise<V> {
    const startedIn = this.generation;
    const loaded = load().then(
      (value) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        if (startedIn === this.generation) {
          // A reload that finds nothing worth keeping (e.g. the session was revoked elsewhere) drops the old answer.
          if (options.keep?.(value) ?? true) this.store(key, value, options);
          else this.entries.delete(key);
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  private store(key: string, value: V, options: GetOptions<V>) {
    const now = Date.now();
    const until = Math.min(now + this.maxAgeMs, options.expiresAt?.(value) ?? Infinity);
    // Bounded: many distinct keys (a search typed letter by letter) push out the oldest.
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until, refreshAt: now + (this.options.refreshAfterMs ?? this.maxAgeMs) });
  }
}
