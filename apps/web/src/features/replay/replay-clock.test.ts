import { describe, expect, it } from 'vitest';
import type { Geofence } from '@prison/shared/geofence';
import { HOLD_MS, advanceClock, fixIndexAt, geofencesAt, positionAt, trailAt } from './replay-clock';

// Three fixes: t 0, 10 s, 20 s moving north by 0.001 degree each.
const track = [0, 51, 0, 10_000, 51.001, 0, 20_000, 51.002, 0.001];

describe('replay clock', () => {
  it('advances at the chosen speed and stops at the end', () => {
    expect(advanceClock(0, 16, 10, 60_000)).toBe(160);
    expect(advanceClock(59_900, 100, 60, 60_000)).toBe(60_000);
  });

  it('finds the fix at or before a time', () => {
    expect(fixIndexAt(track, -1)).toBe(-1);
    expect(fixIndexAt(track, 0)).toBe(0);
    expect(fixIndexAt(track, 9_999)).toBe(0);
    expect(fixIndexAt(track, 10_000)).toBe(1);
    expect(fixIndexAt(track, 99_000)).toBe(2);
    expect(fixIndexAt([], 5)).toBe(-1);
  });

  it('interpolates between fixes and shows nothing before the first or after the last', () => {
    expect(positionAt(track, 5_000)).toEqual([51.0005, 0]);
    const mid = positionAt(track, 15_000)!;
    expect(mid[0]).toBeCloseTo(51.0015, 9);
    expect(mid[1]).toBeCloseTo(0.0005, 9);
    expect(positionAt(track, 20_000)).toEqual([51.002, 0.001]);
    expect(positionAt(track, -1)).toBeNull();
    // After the last fix it stays there until it would count as offline (a window ending now shows everyone).
    expect(positionAt(track, 20_001)).toEqual([51.002, 0.001]);
    expect(positionAt(track, 20_000 + HOLD_MS)).toEqual([51.002, 0.001]);
    expect(positionAt(track, 20_001 + HOLD_MS)).toBeNull();
    // A gap longer than the limit is a loss of signal: no made-up position across it, the last fix held a while.
    expect(positionAt([0, 1, 1, 600_000, 2, 2], 60_000)).toEqual([1, 1]);
    expect(positionAt([0, 1, 1, 600_000, 2, 2], 300_000)).toBeNull();
  });

  it('draws a short trail of the last fixes and the position now', () => {
    expect(trailAt(track, 15_000, 12_000)).toEqual([[51.001, 0], positionAt(track, 15_000)]);
    expect(trailAt(track, 15_000, 60_000)).toHaveLength(3);
    expect(trailAt(track, -5)).toEqual([]);
  });

  it('rebuilds the geofences as they were at the clock', () => {
    const zone = (id: string, name: string) => ({ geofence_id: id, name }) as Geofence;
    const changes = [
      { t: 1000, geofence_id: 'a', geofence: zone('a', 'Renamed') },
      { t: 2000, geofence_id: 'b', geofence: zone('b', 'New') },
      { t: 3000, geofence_id: 'a', geofence: null },
    ];
    const names = (t: number) => geofencesAt([zone('a', 'Yard')], changes, t).map((g) => g.name);
    expect(names(0)).toEqual(['Yard']);
    expect(names(1500)).toEqual(['Renamed']);
    expect(names(2500)).toEqual(['Renamed', 'New']);
    expect(names(3000)).toEqual(['New']);
  });
});
