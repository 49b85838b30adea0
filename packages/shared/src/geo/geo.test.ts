import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EDGE_TOLERANCE_METERS,
  boxContains,
  circleBoundingBox,
  circleContains,
  destinationPoint,
  distanceToPolygonBoundaryMeters,
  haversineMeters,
  isAxisAlignedRectangle,
  isNearPolygonBoundary,
  normalizeLongitude,
  normalizeRing,
  polygonBoundingBox,
  polygonContains,
  polygonEdgesCross,
  polygonPlanarArea,
  preparePolygon,
  rectangleCorners,
  ringContainment,
  RING_INSIDE,
  RING_NEAR_BOUNDARY,
  RING_OUTSIDE,
} from './index';

type LatLng = [number, number];

const lat = fc.double({ min: -80, max: 80, noNaN: true });
const lng = fc.double({ min: -180, max: 180, noNaN: true });

/** Independent reference: winding number (not crossing number), for points off the boundary. */
function windingContains(ring: LatLng[], y: number, x: number): boolean {
  let winding = 0;
  for (let i = 0; i < ring.length; i++) {
    const [y1, x1] = ring[i]!;
    const [y2, x2] = ring[(i + 1) % ring.length]!;
    const side = (x2 - x1) * (y - y1) - (x - x1) * (y2 - y1);
    if (y1 <= y) {
      if (y2 > y && side > 0) winding++;
    } else if (y2 <= y && side < 0) winding--;
  }
  return winding !== 0;
}

/** A simple (non-crossing) star-shaped polygon: vertices at increasing angles around a centre. */
const starPolygon = fc
  .record({
    centerLat: fc.double({ min: -60, max: 60, noNaN: true }),
    centerLng: fc.double({ min: -179, max: 179, noNaN: true }),
    radii: fc.array(fc.double({ min: 0.001, max: 0.05, noNaN: true }), { minLength: 3, maxLength: 40 }),
  })
  .map(({ centerLat, centerLng, radii }) =>
    radii.map((r, i): LatLng => {
      const angle = (2 * Math.PI * i) / radii.length;
      return [centerLat + r * Math.sin(angle), normalizeLongitude(centerLng + r * Math.cos(angle))];
    }),
  );

describe('great-circle distance', () => {
  it('matches known distances', () => {
    // One degree of latitude on the mean sphere, and London to Paris (about 343.5 km on the sphere).
    expect(haversineMeters(0, 0, 1, 0)).toBeCloseTo(111_195.08, 1);
    expect(haversineMeters(51.5074, -0.1278, 48.8566, 2.3522) / 1000).toBeCloseTo(343.56, 0);
    expect(haversineMeters(0, 179.9, 0, -179.9)).toBeCloseTo(2 * 11_119.5, -1);
  });

  it('is symmetric and agrees with the destination formula (property)', () => {
    fc.assert(
      fc.property(
        lat,
        lng,
        fc.double({ min: 0, max: 50_000, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (a, b, d, bearing) => {
          const [lat2, lng2] = destinationPoint(a, b, d, bearing);
          expect(haversineMeters(a, b, lat2, lng2)).toBeCloseTo(d, 3);
          expect(haversineMeters(lat2, lng2, a, b)).toBeCloseTo(haversineMeters(a, b, lat2, lng2), 6);
        },
      ),
    );
  });
});

describe('circle containment', () => {
  it('agrees with great-circle distance (property)', () => {
    fc.assert(
      fc.property(
        lat,
        lng,
        fc.double({ min: 1, max: 20_000, noNaN: true }),
        lat,
        lng,
        (cLat, cLng, radius, pLat, pLng) => {
          const distance = haversineMeters(cLat, cLng, pLat, pLng);
          expect(circleContains(cLat, cLng, radius, pLat, pLng)).toBe(distance <= radius + EDGE_TOLERANCE_METERS);
        },
      ),
    );
  });

  it('contains points nearer than the radius and not points farther, in every direction (property)', () => {
    fc.assert(
      fc.property(
        lat,
        lng,
        fc.double({ min: 5, max: 20_000, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (cLat, cLng, radius, fraction, bearing) => {
          const distance = radius * fraction;
          fc.pre(Math.abs(distance - radius) > 0.01);
          const [pLat, pLng] = destinationPoint(cLat, cLng, distance, bearing);
          expect(circleContains(cLat, cLng, radius, pLat, pLng)).toBe(distance < radius);
        },
      ),
    );
  });

  it('counts the edge as inside (property)', () => {
    fc.assert(
      fc.property(
        lat,
        lng,
        fc.double({ min: 1, max: 20_000, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (cLat, cLng, radius, bearing) => {
          const [pLat, pLng] = destinationPoint(cLat, cLng, radius, bearing);
          expect(circleContains(cLat, cLng, radius, pLat, pLng)).toBe(true);
        },
      ),
    );
  });

  it('works across the antimeridian', () => {
    expect(circleContains(0, 179.99, 3000, 0, -179.99)).toBe(true);
    expect(circleContains(0, 179.99, 1000, 0, -179.99)).toBe(false);
  });
});

describe('rectangles', () => {
  const rectangle = fc
    .record({
      south: fc.double({ min: -70, max: 69, noNaN: true }),
      west: fc.double({ min: -179, max: 178, noNaN: true }),
      height: fc.double({ min: 0.0001, max: 1, noNaN: true }),
      width: fc.double({ min: 0.0001, max: 1, noNaN: true }),
    })
    .map(({ south, west, height, width }) => ({
      south,
      west,
      north: south + height,
      east: Math.min(180, west + width),
    }));

  it('agrees with its bounding box (property)', () => {
    fc.assert(
      fc.property(
        rectangle,
        fc.double({ min: -0.5, max: 1.5, noNaN: true }),
        fc.double({ min: -0.5, max: 1.5, noNaN: true }),
        (r, u, v) => {
          const pLat = r.south + u * (r.north - r.south);
          const pLng = r.west + v * (r.east - r.west);
          const inBox = pLat >= r.south && pLat <= r.north && pLng >= r.west && pLng <= r.east;
          // Points within the edge tolerance (0.1 mm) of a side count as on it; sides are tested below.
          fc.pre(
            distanceToPolygonBoundaryMeters(rectangleCorners(r.south, r.west, r.north, r.east), pLat, pLng) > 0.001,
          );
          expect(polygonContains(rectangleCorners(r.south, r.west, r.north, r.east), pLat, pLng)).toBe(inBox);
        },
      ),
    );
  });

  it('agrees with its bounding box across the antimeridian (property)', () => {
    const ring = rectangleCorners(-5, 175, 5, -170); // 15 degrees wide, crossing 180
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), lng, (pLat, pLng) => {
        const inBox = pLat >= -5 && pLat <= 5 && (pLng >= 175 || pLng <= -170);
        fc.pre(distanceToPolygonBoundaryMeters(ring, pLat, pLng) > 0.001);
        expect(polygonContains(ring, pLat, pLng)).toBe(inBox);
      }),
    );
  });

  it('contains every point on its sides (property)', () => {
    fc.assert(
      fc.property(rectangle, fc.double({ min: 0, max: 1, noNaN: true }), (r, t) => {
        const ring = rectangleCorners(r.south, r.west, r.north, r.east);
        expect(polygonContains(ring, r.south + t * (r.north - r.south), r.west)).toBe(true);
        expect(polygonContains(ring, r.south + t * (r.north - r.south), r.east)).toBe(true);
        expect(polygonContains(ring, r.south, r.west + t * (r.east - r.west))).toBe(true);
        expect(polygonContains(ring, r.north, r.west + t * (r.east - r.west))).toBe(true);
      }),
    );
  });

  it('recognises an axis-aligned rectangle and refuses other quadrilaterals', () => {
    expect(isAxisAlignedRectangle(rectangleCorners(1, 2, 3, 4))).toBe(true);
    expect(isAxisAlignedRectangle(rectangleCorners(1, 179, 3, -179))).toBe(true);
    expect(
      isAxisAlignedRectangle([
        [1, 2],
        [3, 2],
        [3, 4],
        [1, 5],
      ]),
    ).toBe(false);
    expect(
      isAxisAlignedRectangle([
        [1, 2],
        [1, 4],
        [1, 2],
        [3, 2],
      ]),
    ).toBe(false);
    expect(
      isAxisAlignedRectangle([
        [1, 2],
        [3, 4],
        [1, 4],
        [3, 2],
      ]),
    ).toBe(false);
    expect(isAxisAlignedRectangle(rectangleCorners(1, 2, 1, 4))).toBe(false);
    expect(isAxisAlignedRectangle(rectangleCorners(1, 2, 3, 4).slice(0, 3))).toBe(false);
  });
});

describe('concave polygons', () => {
  // A U: two arms (lng 0..1 and 2..3) joined at the bottom (lat 0..1); the notch lat 1..3, lng 1..2 is outside.
  const u: LatLng[] = [
    [0, 0],
    [3, 0],
    [3, 1],
    [1, 1],
    [1, 2],
    [3, 2],
    [3, 3],
    [0, 3],
  ].map(([a, b]) => [a! / 100, b! / 100] as LatLng);
  const inU = (y: number, x: number) =>
    (y >= 0 && y <= 0.01 && x >= 0 && x <= 0.03) ||
    (y >= 0 && y <= 0.03 && ((x >= 0 && x <= 0.01) || (x >= 0.02 && x <= 0.03)));
  // An L: the square 0..2 minus its upper right quarter.
  const l: LatLng[] = [
    [0, 0],
    [2, 0],
    [2, 1],
    [1, 1],
    [1, 2],
    [0, 2],
  ];
  const inL = (y: number, x: number) => x >= 0 && y >= 0 && x <= 2 && y <= 2 && (x <= 1 || y <= 1);

  it('refuses points in the bounding box but outside the shape', () => {
    expect(polygonContains(u, 0.02, 0.015)).toBe(false); // in the notch
    expect(polygonContains(u, 0.005, 0.015)).toBe(true); // in the base
    expect(polygonContains(u, 0.025, 0.005)).toBe(true); // in an arm
    expect(polygonContains(l, 1.5, 1.5)).toBe(false);
    expect(polygonContains(l, 0.5, 1.5)).toBe(true);
  });

  it('agrees with the shape for every point of its box (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -0.01, max: 0.04, noNaN: true }),
        fc.double({ min: -0.01, max: 0.04, noNaN: true }),
        (y, x) => {
          fc.pre(distanceToPolygonBoundaryMeters(u, y, x) > 0.001);
          expect(polygonContains(u, y, x)).toBe(inU(y, x));
        },
      ),
    );
    fc.assert(
      fc.property(fc.double({ min: -1, max: 3, noNaN: true }), fc.double({ min: -1, max: 3, noNaN: true }), (y, x) => {
        fc.pre(distanceToPolygonBoundaryMeters(l, y, x) > 0.001);
        expect(polygonContains(l, y, x)).toBe(inL(y, x));
      }),
    );
  });

  it('agrees with an independent winding-number test on random simple polygons (property)', () => {
    fc.assert(
      fc.property(
        starPolygon,
        fc.double({ min: -1.2, max: 1.2, noNaN: true }),
        fc.double({ min: -1.2, max: 1.2, noNaN: true }),
        (ring, u1, v1) => {
          const prepared = preparePolygon(ring);
          const y = prepared.minLat + ((u1 + 1) / 2) * (prepared.maxLat - prepared.minLat);
          const x = normalizeLongitude(prepared.minLng + ((v1 + 1) / 2) * (prepared.maxLng - prepared.minLng));
          fc.pre(distanceToPolygonBoundaryMeters(prepared, y, x) > 0.01);
          const unwrapped = ring.map(([a, b]): LatLng => [a, b - ring[0]![1]]);
          const rel = normalizeLongitude(x - ring[0]![1]);
          expect(polygonContains(ring, y, x)).toBe(
            windingContains(
              unwrapped.map(([a, b]) => [a, normalizeLongitude(b)] as LatLng),
              y,
              rel,
            ),
          );
        },
      ),
    );
  });
});

describe('edges and vertices count as inside', () => {
  it('contains every vertex and every point along every edge (property)', () => {
    fc.assert(
      fc.property(starPolygon, fc.double({ min: 0, max: 1, noNaN: true }), (ring, t) => {
        for (let i = 0; i < ring.length; i++) {
          const [y1, x1] = ring[i]!;
          const [y2, x2raw] = ring[(i + 1) % ring.length]!;
          const x2 = x1 + normalizeLongitude(x2raw - x1);
          expect(polygonContains(ring, y1, x1)).toBe(true);
          expect(polygonContains(ring, y1 + t * (y2 - y1), normalizeLongitude(x1 + t * (x2 - x1)))).toBe(true);
        }
      }),
    );
  });

  it('contains the sides of the U and the L exactly', () => {
    const l: LatLng[] = [
      [0, 0],
      [2, 0],
      [2, 1],
      [1, 1],
      [1, 2],
      [0, 2],
    ];
    expect(polygonContains(l, 1, 1.5)).toBe(true); // the inner edge
    expect(polygonContains(l, 1.5, 1)).toBe(true);
    expect(polygonContains(l, 1, 1)).toBe(true); // the reflex vertex
    expect(polygonContains(l, 2, 0)).toBe(true);
    expect(polygonContains(l, 1.000001, 1.5)).toBe(false);
  });
});

describe('antimeridian', () => {
  const ring: LatLng[] = [
    [-1, 179],
    [-1, -179],
    [1, -179],
    [1, 179],
  ];

  it('contains points on both sides of 180 and refuses the rest of the world', () => {
    expect(polygonContains(ring, 0, 180)).toBe(true);
    expect(polygonContains(ring, 0, -180)).toBe(true);
    expect(polygonContains(ring, 0, 179.5)).toBe(true);
    expect(polygonContains(ring, 0, -179.5)).toBe(true);
    expect(polygonContains(ring, 0, 0)).toBe(false);
    expect(polygonContains(ring, 0, 178.5)).toBe(false);
    expect(polygonContains(ring, 0, -178.5)).toBe(false);
  });

  it('gives a contiguous box and boundary distances across 180', () => {
    const box = polygonBoundingBox(preparePolygon(ring), 100);
    expect(box.minLng).toBeLessThan(179);
    expect(box.maxLng).toBeGreaterThan(181);
    expect(boxContains(box, 0, -179.5)).toBe(true);
    expect(boxContains(box, 0, 0)).toBe(false);
    expect(distanceToPolygonBoundaryMeters(ring, 0, 180)).toBeCloseTo(111_195, -2);
  });

  it('agrees with a shifted copy of the same polygon away from 180 (property)', () => {
    fc.assert(
      fc.property(
        starPolygon,
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        (ring0, du, dv) => {
          // Move the polygon so its centre sits on the antimeridian, then compare with the same shape at longitude 0.
          const shift = 180 - ring0[0]![1];
          const atAntimeridian = ring0.map(([a, b]): LatLng => [a, normalizeLongitude(b + shift)]);
          const atZero = ring0.map(([a, b]): LatLng => [a, normalizeLongitude(b + shift - 180)]);
          const y = ring0[0]![0] + du * 0.06;
          const x = dv * 0.06;
          expect(polygonContains(atAntimeridian, y, normalizeLongitude(x + 180))).toBe(polygonContains(atZero, y, x));
        },
      ),
    );
  });
});

describe('distance to the boundary', () => {
  it('measures from inside and outside', () => {
    const square = rectangleCorners(0, 0, 0.01, 0.01); // about 1.1 km wide
    expect(distanceToPolygonBoundaryMeters(square, 0.005, 0.005)).toBeCloseTo(555.98, 0);
    expect(distanceToPolygonBoundaryMeters(square, 0.005, 0.011)).toBeCloseTo(111.2, 0);
    expect(distanceToPolygonBoundaryMeters(square, 0.01, 0.005)).toBe(0);
    expect(isNearPolygonBoundary(preparePolygon(square), 0.005, 0.011, 120)).toBe(true);
    expect(isNearPolygonBoundary(preparePolygon(square), 0.005, 0.011, 100)).toBe(false);
  });

  it('agrees with great-circle distance to the nearest vertex within 0.1 % at geofence scale (property)', () => {
    fc.assert(
      fc.property(
        lat,
        lng,
        fc.double({ min: 10, max: 3000, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (vLat, vLng, d, bearing) => {
          // A point d metres from the corner of a large square, outward from the corner: the corner is the nearest point.
          fc.pre(Math.abs(vLat) < 70);
          const ring: LatLng[] = [
            [vLat, vLng],
            [vLat - 0.5, vLng],
            [vLat - 0.5, normalizeLongitude(vLng - 0.5)],
            [vLat, normalizeLongitude(vLng - 0.5)],
          ];
          const [pLat, pLng] = destinationPoint(vLat, vLng, d, 10 + (bearing % 70));
          expect(Math.abs(distanceToPolygonBoundaryMeters(ring, pLat, pLng) - d) / d).toBeLessThan(0.001);
        },
      ),
    );
  });
});

describe('one-pass ring containment with a buffer', () => {
  it('agrees with the boundary distance and the containment test (property)', () => {
    fc.assert(
      fc.property(
        starPolygon,
        fc.constantFrom(0, 1, 5, 50, 500),
        fc.double({ min: -1.3, max: 1.3, noNaN: true }),
        fc.double({ min: -1.3, max: 1.3, noNaN: true }),
        (ring, buffer, u1, v1) => {
          const prepared = preparePolygon(ring);
          const y = prepared.minLat + ((u1 + 1) / 2) * (prepared.maxLat - prepared.minLat);
          const x = normalizeLongitude(prepared.minLng + ((v1 + 1) / 2) * (prepared.maxLng - prepared.minLng));
          const distance = distanceToPolygonBoundaryMeters(prepared, y, x);
          fc.pre(Math.abs(distance - buffer) > 1e-6);
          const expected =
            buffer > 0 && distance <= buffer
              ? RING_NEAR_BOUNDARY
              : polygonContains(prepared, y, x)
                ? RING_INSIDE
                : RING_OUTSIDE;
          expect(ringContainment(prepared.coords, 0, prepared.count, prepared.refLng, y, x, buffer)).toBe(expected);
        },
      ),
    );
  });
});

describe('shape checks', () => {
  it('finds crossing edges', () => {
    expect(
      polygonEdgesCross([
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
      ]),
    ).toBe(true); // a bow tie
    expect(
      polygonEdgesCross([
        [0, 0],
        [0, 1],
        [1, 1],
        [1, 0],
      ]),
    ).toBe(false);
    expect(
      polygonEdgesCross([
        [0, 0],
        [0, 2],
        [1, 2],
        [0, 1],
        [-1, 1],
      ]),
    ).toBe(true); // a vertex touching an edge
    expect(
      polygonEdgesCross([
        [0, 0],
        [0, 2],
        [0, 1],
        [1, 1],
      ]),
    ).toBe(true); // an edge folding back
    expect(
      polygonEdgesCross([
        [0, 0],
        [3, 0],
        [3, 1],
        [1, 1],
        [1, 2],
        [3, 2],
        [3, 3],
        [0, 3],
      ]),
    ).toBe(false); // U
  });

  it('accepts every simple polygon (property)', () => {
    fc.assert(
      fc.property(starPolygon, (ring) => {
        expect(polygonEdgesCross(ring)).toBe(false);
      }),
    );
  });

  it('finds the crossing when two vertices of a simple polygon are swapped (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 30 }), (n) => {
        const ring = Array.from({ length: n }, (_, i): LatLng => [
          Math.sin((2 * Math.PI * i) / n),
          Math.cos((2 * Math.PI * i) / n),
        ]);
        [ring[0], ring[2]] = [ring[2]!, ring[0]!];
        expect(polygonEdgesCross(ring)).toBe(true);
      }),
    );
  });

  it('normalises rings and measures area', () => {
    expect(
      normalizeRing([
        [0, 0],
        [0, 0],
        [0, 1],
        [1, 1],
        [0, 0],
      ]),
    ).toEqual([
      [0, 0],
      [0, 1],
      [1, 1],
    ]);
    expect(
      Math.abs(
        polygonPlanarArea([
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
        ]),
      ),
    ).toBe(1);
    expect(
      polygonPlanarArea([
        [0, 0],
        [1, 1],
        [2, 2],
      ]),
    ).toBe(0);
  });
});

describe('bounding boxes', () => {
  it('hold every point of a circle and its margin (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -85, max: 85, noNaN: true }),
        lng,
        fc.double({ min: 1, max: 50_000, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (cLat, cLng, radius, margin, fraction, bearing) => {
          const box = circleBoundingBox(cLat, cLng, radius, margin);
          const [pLat, pLng] = destinationPoint(cLat, cLng, (radius + margin) * fraction * 0.999999, bearing);
          expect(boxContains(box, pLat, pLng)).toBe(true);
        },
      ),
    );
  });

  it('hold every point near a polygon (property)', () => {
    fc.assert(
      fc.property(
        starPolygon,
        fc.double({ min: 0, max: 300, noNaN: true }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        (ring, margin, u1, v1) => {
          const prepared = preparePolygon(ring);
          const box = polygonBoundingBox(prepared, margin);
          const y = prepared.minLat + ((u1 + 1) / 2) * (prepared.maxLat - prepared.minLat);
          const x = normalizeLongitude(prepared.minLng + ((v1 + 1) / 2) * (prepared.maxLng - prepared.minLng));
          if (polygonContains(prepared, y, x) || distanceToPolygonBoundaryMeters(prepared, y, x) <= margin)
            expect(boxContains(box, y, x)).toBe(true);
        },
      ),
    );
  });

  it('spans every longitude around a pole', () => {
    expect(circleBoundingBox(89.99, 0, 5000)).toMatchObject({ minLng: -180, maxLng: 180, maxLat: 90 });
  });
});
