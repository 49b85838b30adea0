// The matching rule of decision 068 and the probes around a subject, without a database.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { METERS_PER_DEGREE, haversineMeters } from '@prison/shared';
import { gridCellOf } from '../../db/position-grid';
import { contactsOf, distanceToTrack, peopleNear, type TrackFix } from './near-matching';
import { probesFor } from './near-probes';
import { isoOfMany } from './investigations-service';

const LAT = 51.5;
const LNG = -0.12;
const east = (m: number) => LNG + m / (METERS_PER_DEGREE * Math.cos((LAT * Math.PI) / 180));
const fix = (s: number, metresEast: number): TrackFix => ({ t: s * 1000, lat: LAT, lng: east(metresEast) });

describe('matching at the same moments', () => {
  const subject = [fix(0, 0), fix(60, 100)];

  it('compares with the fix nearest in time, within 30 s only', () => {
    expect(distanceToTrack(subject, fix(10, 2))).toBeCloseTo(2, 3);
    expect(distanceToTrack(subject, fix(50, 98))).toBeCloseTo(2, 3);
    // 25 s from the first fix, 35 s from the second: the first, though the second is closer in space.
    expect(distanceToTrack(subject, fix(25, 100))).toBeCloseTo(100, 3);
    expect(distanceToTrack(subject, fix(95, 100))).toBeNull();
  });

  it('people near: first and last time, minimum distance, fixes; an unworn tracker names nobody', () => {
    const candidates = [
      { ...fix(5, 4), prisonerId: 2, staffId: null },
      { ...fix(10, 1), prisonerId: 2, staffId: null },
      { ...fix(20, 50), prisonerId: 2, staffId: null },
      { ...fix(10, 3), prisonerId: null, staffId: 7 },
      { ...fix(10, 0), prisonerId: null, staffId: null },
    ];
    const near = peopleNear(candidates, subject, 5);
    expect(near.map((p) => [p.prisonerId, p.staffId, p.firstAt, p.lastAt, p.fixes])).toEqual([
      [2, null, 5000, 10_000, 2],
      [null, 7, 10_000, 10_000, 1],
    ]);
    expect(near[0]!.minDistanceM).toBeCloseTo(1, 3);
  });

  it('contacts: the same whichever is named first, split by a gap over 60 s', () => {
    const a = [0, 10, 20, 200, 210].map((s) => fix(s, 0));
    const b = [0, 10, 20, 200, 210].map((s) => fix(s, s < 100 ? 3 : 4));
    const ab = contactsOf(a, b, 5, 0, 300_000);
    expect(ab.map((c) => [c.startAt, c.endAt, c.fixes])).toEqual([
      [0, 20_000, 6],
      [200_000, 210_000, 4],
    ]);
    expect(ab[0]!.minDistanceM).toBeCloseTo(3, 3);
    expect(contactsOf(b, a, 5, 0, 300_000)).toEqual(ab);
  });
});

describe('probes', () => {
  it('cover every point within the radius, and merge a still subject into one interval per cell', () => {
    const still = [0, 10, 20, 30].map((s) => fix(s, 0));
    const probes = probesFor(still, 10, 0, 60_000);
    expect(new Set(probes.map((p) => p.cell)).size).toBe(probes.length);
    expect(probes.every((p) => p.from === 0 && p.to === 60_000)).toBe(true);
    for (let angle = 0; angle < 360; angle += 15) {
      const r = (angle * Math.PI) / 180;
      const lat = LAT + (9.99 * Math.sin(r)) / METERS_PER_DEGREE;
      const lng = east(9.99 * Math.cos(r));
      expect(haversineMeters(LAT, LNG, lat, lng)).toBeLessThan(10);
      expect(probes.map((p) => p.cell)).toContain(gridCellOf(lat, lng));
    }
  });
});

describe("the snapshot's ISO text", () => {
  it('is what toISOString writes, for whole milliseconds 1900-2100 and neighbours sharing a second', () => {
    const instant = fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2100, 11, 31) });
    fc.assert(
      fc.property(fc.array(instant, { maxLength: 50 }), (times) => {
        const isoOf = isoOfMany();
        for (const t of times.flatMap((t) => [t, t + 1, t - 1, t])) expect(isoOf(t)).toBe(new Date(t).toISOString());
      }),
    );
  });
});
