import { describe, expect, it } from 'vitest';
import { ALERT_TYPES, type AlertType } from './constants';
import { compareSeverity, isAlarmLevel, severityRank, worseLevel, zoneState } from './alert-severity';

describe('severity', () => {
  it('sorts Critical, Warning, Informational, then no level, whatever the input order', () => {
    const levels: (AlertType | null)[] = [null, 'Informational', 'Critical', null, 'Warning', 'Critical'];
    expect([...levels].sort(compareSeverity)).toEqual(['Critical', 'Critical', 'Warning', 'Informational', null, null]);
    expect([...levels].reverse().sort(compareSeverity)).toEqual([...levels].sort(compareSeverity));
  });

  it('ranks every level apart and below no level', () => {
    const ranks = ALERT_TYPES.map(severityRank);
    expect(new Set(ranks).size).toBe(ALERT_TYPES.length);
    for (const rank of ranks) expect(rank).toBeLessThan(severityRank(null));
  });

  it('picks the worse of two levels', () => {
    expect(worseLevel('Informational', 'Warning')).toBe('Warning');
    expect(worseLevel('Critical', null)).toBe('Critical');
    expect(worseLevel(null, 'Informational')).toBe('Informational');
    expect(worseLevel(null, undefined)).toBeNull();
  });

  it('calls only Critical and Warning alarms: an Informational violation is "in zone"', () => {
    const expected: Record<AlertType, [boolean, string]> = {
      Critical: [true, 'violation'],
      Warning: [true, 'violation'],
      Informational: [false, 'zone'],
    };
    for (const level of ALERT_TYPES) expect([isAlarmLevel(level), zoneState(level)], level).toEqual(expected[level]);
    expect(zoneState(null)).toBe('none');
  });
});
