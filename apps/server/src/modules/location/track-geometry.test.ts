import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { prepareGeofence, thinIndexes, timeInGeofences, trackDistance } from './track-geometry';

const square = prepareGeofence({
  geofenceId: 'sq',
  name: 'Square',
  shape: 'Rectangle',
  radius: null,
  centerLat: null,
  centerLng: null,
  coordinates: [
    [51.5, -0.13],
    [51.5, -0.12],
    [51.51, -0.12],
    [51.51, -0.13],
  ],
})!;
const circle = prepareGeofence({
  geofenceId: 'c',
  name: 'Circle',
  shape: 'Circle',
  radius: 100,
  centerLat: 51.5,
  centerLng: -0.1,
  coordinates: null,
})!;

describe('track geometry', () => {
  it('thins to at most maxPoints, evenly, keeping the first and the last', () => {
    expect(thinIndexes(5, 10)).toEqual([0, 1, 2, 3, 4]);
    expect(thinIndexes(11, 3)).toEqual([0, 5, 10]);
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 20_000 }), fc.integer({ min: 2, max: 3000 }), (total, max) => {
        const idx = thinIndexes(total, max);
        expect(idx.length).toBe(Math.min(total, max));
        expect(idx[0]).toBe(0);
        expect(idx.at(-1)).toBe(total - 1);
        for (let i = 1; i < idx.length; i++) if (idx[i]! <= idx[i - 1]!) throw new Error(`not increasing at ${i}`);
      }),
      { numRuns: 50 },
    );
  });

  it('counts the edge of a polygon and of a circle as inside', () => {
    expect(square.contains(51.5, -0.125)).toBe(true); // on an edge
    expect(square.contains(51.51, -0.13)).toBe(true); // a corner
    expect(square.contains(51.4999, -0.125)).toBe(false);
    expect(circle.contains(51.5, -0.1)).toBe(true);
    expect(circle.contains(51.5 + 99 / 111_195, -0.1)).toBe(true); // 99 m north
    expect(circle.contains(51.5 + 101 / 111_195, -0.1)).toBe(false); // 101 m north
  });

  it('times each geofence until the next fix, capping a silence at the maximum gap', () => {
    const t0 = 1_700_000_000_000;
    const fixes = [
      { t: t0, lat: 51.505, lng: -0.125 }, // in the square for 10 s
      { t: t0 + 10_000, lat: 51.5, lng: -0.1 }, // in the circle, then 1 hour of silence capped at 300 s
      { t: t0 + 3_610_000, lat: 51.505, lng: -0.125 }, // last fix holds no time
    ];
    const seconds = timeInGeofences(fixes, [square, circle], 300);
    expect(seconds.get('sq')).toBe(10);
    expect(seconds.get('c')).toBe(300);
    expect(trackDistance(fixes)).toBeGreaterThan(2 * 1700);
    expect(trackDistance(fixes.slice(0, 1))).toBe(0);
  });
});
