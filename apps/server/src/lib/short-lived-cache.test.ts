import { describe, expect, it } from 'vitest';
import { ShortLivedCache } from './short-lived-cache';

describe('ShortLivedCache', () => {
  it('answers from the cache until invalidated', async () => {
    const cache = new ShortLivedCache<number>(60_000);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    cache.invalidate();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('never keeps a value whose load raced an invalidation', async () => {
    const cache = new ShortLivedCache<string>(60_000);
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('stale'))));
    cache.invalidate(); // a write commits while the stale read is in flight
    release();
    expect(await slow).toBe('stale');
    expect(await cache.get('k', async () => 'fresh')).toBe('fresh');
  });

  it('keeps only what `keep` accepts and never past `expiresAt`', async () => {
    const cache = new ShortLivedCache<string | null>(60_000);
    expect(await cache.get('none', async () => null, { keep: (v) => v !== null })).toBeNull();
    expect(await cache.get('none', async () => 'found', { keep: (v) => v !== null })).toBe('found');
    expect(await cache.get('expired', async () => 'old', { expiresAt: () => Date.now() - 1 })).toBe('old');
    expect(await cache.get('expired', async () => 'new')).toBe('new');
  });
});

describe('ShortLivedCache under concurrent misses', () => {
  it('shares one load among concurrent misses of a key, and forgets a failed one', async () => {
    const cache = new ShortLivedCache<number>(60_000);
    let loads = 0;
    const load = () => new Promise<number>((resolve) => setTimeout(() => resolve(++loads), 5));
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', load)));
    expect(answers).toEqual(Array(20).fill(1));
    expect(loads).toBe(1);

    const failing = () => Promise.reject(new Error('database down'));
    await expect(Promise.all([cache.get('f', failing), cache.get('f', failing)])).rejects.toThrow('database down');
    expect(await cache.get('f', async () => 7)).toBe(7);
  });

  it('does not let a request after an invalidation join the load that started before it', async () => {
    const cache = new ShortLivedCache<string>(60_000);
    let release!: () => void;
    const before = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('before write'))));
    cache.invalidate();
    const after = cache.get('k', async () => 'after write');
    release();
    expect(await before).toBe('before write');
    expect(await after).toBe('after write');
    expect(await cache.get('k', async () => 'unused')).toBe('after write');
  });
});

describe('ShortLivedCache with refreshAfterMs', () => {
  it('answers a due entry at once while one reload runs, and never past maxAgeMs', async () => {
    let now = 1_000_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const cache = new ShortLivedCache<number>(2_000, { refreshAfterMs: 1_000 });
      let loads = 0;
      let release!: () => void;
      const load = () => {
        loads++;
        return loads === 1 ? Promise.resolve(1) : new Promise<number>((resolve) => (release = () => resolve(loads)));
      };
      expect(await cache.get('k', load)).toBe(1);
      now += 1_500; // due for a refresh, not yet expired
      expect(await cache.get('k', load)).toBe(1);
      expect(await cache.get('k', load)).toBe(1);
      expect(loads).toBe(2); // one background reload for both requests
      release();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(await cache.get('k', load)).toBe(2);

      now += 2_001; // past maxAgeMs: the caller waits for a fresh load
      const waiting = cache.get('k', load);
      release();
      expect(await waiting).toBe(3);
    } finally {
      Date.now = realNow;
    }
  });

  it('does not answer an entry past its own expiresAt, even when a refresh would be due', async () => {
    const cache = new ShortLivedCache<string>(60_000, { refreshAfterMs: 0 });
    await cache.get('s', async () => 'session', { expiresAt: () => Date.now() - 1 });
    expect(await cache.get('s', async () => 'reloaded')).toBe('reloaded');
  });

  it('drops the old answer when a background reload finds nothing to keep', async () => {
    let now = 5_000_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const cache = new ShortLivedCache<string | null>(2_000, { refreshAfterMs: 1_000 });
      const keep = { keep: (v: string | null) => v !== null };
      expect(await cache.get('token', async () => 'live session', keep)).toBe('live session');
      now += 1_500;
      // Due: answered from the cache while the reload (revoked elsewhere: null) runs.
      expect(await cache.get('token', async () => null, keep)).toBe('live session');
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(await cache.get('token', async () => null, keep)).toBeNull();
    } finally {
      Date.now = realNow;
    }
  });
});
