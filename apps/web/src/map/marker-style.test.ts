import { describe, expect, it } from 'vitest';
import { isFixFresh, MARKER_COLOURS, markerLabel, markerLevel } from './marker-style';

describe('markerLevel', () => {
  it('follows the worst open alert while online', () => {
    expect(markerLevel(true, 'Critical')).toBe('critical');
    expect(markerLevel(true, 'Warning')).toBe('warning');
    expect(markerLevel(true, 'Informational')).toBe('informational');
    expect(markerLevel(true, null)).toBe('none');
    expect(markerLevel(true, undefined)).toBe('none');
  });

  it('is offline whatever is open when the tracker is offline', () => {
    expect(markerLevel(false, 'Critical')).toBe('offline');
    expect(markerLevel(false, null)).toBe('offline');
  });

  it('gives every level its own colour: red, amber, blue, green, grey', () => {
    expect(MARKER_COLOURS.critical).toBe('#dc2626');
    expect(MARKER_COLOURS.warning).toBe('#d97706');
    expect(MARKER_COLOURS.informational).toBe('#2563eb');
    expect(MARKER_COLOURS.none).toBe('#16a34a');
    expect(MARKER_COLOURS.offline).toBe('#94a3b8');
    expect(new Set(Object.values(MARKER_COLOURS)).size).toBe(5);
  });
});

describe('isFixFresh', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('is fresh within the offline threshold and stale beyond it', () => {
    expect(isFixFresh('2026-11-23T11:58:00Z', 120, now)).toBe(true);
    expect(isFixFresh('2026-11-23T11:57:59Z', 120, now)).toBe(false);
  });
  it('counts a fix without a time as fresh', () => {
    expect(isFixFresh(undefined, 120, now)).toBe(true);
    expect(isFixFresh('not a time', 120, now)).toBe(true);
  });
});

describe('markerLabel', () => {
  it('is the initials of the first and last name and the cell', () => {
    expect(markerLabel('John Adam Walker', 'B-4')).toBe('JW B-4');
    expect(markerLabel('  mary   jones ', null)).toBe('MJ');
    expect(markerLabel('Tag', undefined)).toBe('T');
    expect(markerLabel('', 'C-1')).toBe('C-1');
  });
});
