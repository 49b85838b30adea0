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
