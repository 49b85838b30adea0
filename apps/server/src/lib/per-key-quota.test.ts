import { describe, expect, it } from 'vitest';
import { PerKeyQuota } from './per-key-quota';

describe('PerKeyQuota', () => {
  it('allows max uses per key within a window from its first use, counts no refusal, and resets after it', () => {
    const quota = new PerKeyQuota(2, 60_000);
    const start = 1_000_000;
    expect([quota.take('a', start), quota.take('a', start + 1), quota.take('a', start + 2)]).toEqual([true, true, false]);
    expect(quota.take('b', start + 3)).toBe(true);
    expect(quota.secondsUntilReset('a', start + 30_000)).toBe(30);
    expect(quota.take('a', start + 59_999)).toBe(false);
    expect(quota.take('a', start + 60_000)).toBe(true);
    expect(quota.take('a', start + 60_001)).toBe(true);
    expect(quota.take('a', start + 60_002)).toBe(false);
  });
});
