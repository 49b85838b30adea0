import { describe, expect, it } from 'vitest';
import { formatAlertDateTime } from '../../lib/format';
import { repeatSummary } from './alert-repeats';

describe('repeatSummary', () => {
  it('says how often a folded problem was seen and when last; nothing for a problem seen once', () => {
    const last = '2026-12-08T01:40:00.000Z';
    expect(repeatSummary({ repeat_count: 5, last_seen_at: last, last_repeat_at: last })).toBe(`Seen 5 times, last ${formatAlertDateTime(last)}`);
    expect(repeatSummary({ repeat_count: 1, last_seen_at: last, last_repeat_at: null })).toBeNull();
    expect(repeatSummary({})).toBeNull();
  });
});
