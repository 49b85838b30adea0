import { describe, expect, it } from 'vitest';
import { formatAge } from './format';

describe('formatAge', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(formatAge(3_000)).toBe('just now');
    expect(formatAge(12_000)).toBe('12 s ago');
    expect(formatAge(3 * 60_000 + 59_000)).toBe('3 min ago');
    expect(formatAge((3 * 60 + 5) * 60_000)).toBe('3 h 5 min ago');
    expect(formatAge(5 * 24 * 3_600_000)).toBe('5 days ago');
  });

  it('never reads a negative age (a clock slightly ahead)', () => {
    expect(formatAge(-5_000)).toBe('just now');
  });
});

describe('formatAge without "just now"', () => {
  it('reads seconds from zero (the feed banner counts every second)', () => {
    expect(formatAge(35_400, { justNow: false })).toBe('35 s ago');
    expect(formatAge(-5, { justNow: false })).toBe('0 s ago');
    expect(formatAge(4 * 60_000 + 59_000, { justNow: false })).toBe('4 min ago');
    expect(formatAge(125 * 60_000, { justNow: false })).toBe('2 h 5 min ago');
  });
});
