import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeLongitude, rectangleCorners, type StoredGeofence } from '@prison/shared';
import { GeofenceIndex, containmentName, containmentOf, linearScanClassify } from './geofence-index';
import { circleFence, east, perimeterCorners, polygonFence } from './geofence-test-shapes';

describe('geofence index', () => {
  const workshop = circleFence({ geofence_id: 'workshop', radius: 100, buffer_meters: 10 });
  const perimeter = polygonFence(perimeterCorners, { geofence_id: 'perimeter' });

  it('classifies inside, edge and outside, and leaves far geofences out', () => {
    const index = new GeofenceIndex([workshop, perimeter]);
    const byId = (lat: number, lng: number) =>
      Object.fromEntries(index.classify(lat, lng).map((c) => [c.geofence.geofence_id, c.containment]));
    expect(byId(...east(50))).toEqual({ workshop: 'inside', perimeter: 'inside' });
    expect(byId(...east(95))).toEqual({ workshop: 'edge', perimeter: 'inside' });
    expect(byId(...east(105))).toEqual({ workshop: 'edge', perimeter: 'inside' });
    expect(byId(...east(500))).toEqual({ perimeter: 'inside' });
    expect(byId(...east(5000))).toEqual({});
  });

  it('works when empty', () => {
    const index = new GeofenceIndex([]);
    expect(index.query(0, 0)).toBe(0);
    expect(index.classify(0, 0)).toEqual([]);
  });

  it('finds geofences across the antimeridian', () => {
    const dateLine = polygonFence(rectangleCorners(-1, 179, 1, -179), { geofence_id: 'date-line' });
    const circle = circleFence({ geofence_id: 'c', center_lat: 0, center_lng: 179.999, radius: 500 });
    const index = new GeofenceIndex([dateLine, circle]);
    expect(index.classify(0, -179.5).map((c) => [c.geofence.geofence_id, c.containment])).toEqual([
      ['date-line', 'inside'],
    ]);
    expect(
      index
        .classify(0, -179.9999)
        .map((c) => [c.geofence.geofence_id, c.containment])
        .sort(),
    ).toEqual([
      ['c', 'inside'],
      ['date-line', 'inside'],
    ]);
    expect(index.classify(0, 0)).toEqual([]);
  });

  it('agrees with the linear scan for random geofences and points (property)', () => {
    const fenceArb = fc.record({
      shape: fc.constantFrom('Circle', 'Polygon', 'Rectangle'),
      lat: fc.double({ min: -60, max: 60, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
      size: fc.double({ min: 0.0005, max: 0.05, noNaN: true }),
      buffer: fc.constantFrom(0, 5, 50),
      points: fc.integer({ min: 3, max: 32 }),
    });
    fc.assert(
      fc.property(
        fc.array(fenceArb, { minLength: 1, maxLength: 40 }),
        fc.array(
          fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.nat()),
          { maxLength: 40 },
        ),
        (specs, probes) => {
          const fences = specs.map((s, i): StoredGeofence => {
            const common = { geofence_id: `g${i}`, buffer_meters: s.buffer };
            if (s.shape === 'Circle')
              return circleFence({ ...common, center_lat: s.lat, center_lng: s.lng, radius: s.size * 111_195 });
            if (s.shape === 'Rectangle')
              return polygonFence(
                rectangleCorners(s.lat, s.lng, s.lat + s.size, normalizeLongitude(s.lng + s.size)),
                common,
              );
            const ring = Array.from({ length: s.points }, (_, k): [number, number] => {
              const angle = (2 * Math.PI * k) / s.points;
              const r = s.size * (k % 2 === 0 ? 1 : 0.5); // a star: concave
              return [s.lat + r * Math.sin(angle), normalizeLongitude(s.lng + r * Math.cos(angle))];
            });
            return polygonFence(ring, common);
          });
          const index = new GeofenceIndex(fences);
          const out = new Uint8Array(fences.length);
          for (const [du, dv, which] of probes) {
            // Probe near one of the geofences so that hits are common.
            const s = specs[which % specs.length]!;
            const lat = s.lat + du * s.size * 1.5;
            const lng = normalizeLongitude(s.lng + dv * s.size * 1.5);
            linearScanClassify(index, lat, lng, out);
            const fromIndex = new Map(index.classify(lat, lng).map((c) => [c.geofence.geofence_id, c.containment]));
            fences.forEach((g, slot) => {
              expect(fromIndex.get(g.geofence_id) ?? 'outside').toBe(containmentName(out[slot]!));
              // The flat fast path gives the same answer as the plain geometry functions.
              expect(containmentName(out[slot]!)).toBe(containmentName(containmentOf(index.fences[slot]!, lat, lng)));
            });
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
