// Exact point-in-polygon, distance to a polygon's boundary, and shape checks (docs/CLIENT-CONTRACT.md).
// Polygons are lists of [latitude, longitude] vertices as Leaflet gives them, without a closing vertex.
import { DEG_TO_RAD, EDGE_TOLERANCE_METERS, METERS_PER_DEGREE } from './distance';

type LatLng = readonly [number, number];

/**
 * A polygon ready for repeated tests: one flat array of interleaved [lat0, lng0, lat1, lng1, ...] (contiguous in
 * memory, so a test touches few cache lines), longitudes unwrapped around the first vertex.
 */
export interface PreparedPolygon {
  /** Longitudes lie within 180 degrees of the first vertex, so a polygon crossing the antimeridian stays contiguous. */
  readonly coords: Float64Array;
  readonly count: number;
  /** The first vertex's longitude: a point's longitude is unwrapped around it before testing. */
  readonly refLng: number;
  readonly minLat: number;
  readonly maxLat: number;
  /** May pass beyond +-180 for a polygon crossing the antimeridian. */
  readonly minLng: number;
  readonly maxLng: number;
}

/** Edge tolerance in degrees (about 0.1 mm): a point this close to an edge is on it. */
const EDGE_TOLERANCE_DEGREES = EDGE_TOLERANCE_METERS / METERS_PER_DEGREE / 10;

/** The longitude moved by a whole turn, when needed, to lie within 180 degrees of `ref`. */
export function unwrapLongitude(lng: number, ref: number): number {
  const d = lng - ref;
  if (d > 180) return lng - 360;
  if (d < -180) return lng + 360;
  return lng;
}

export function preparePolygon(coordinates: readonly LatLng[]): PreparedPolygon {
  const count = coordinates.length;
  const coords = new Float64Array(count * 2);
  const refLng = count > 0 ? coordinates[0]![1] : 0;
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (let i = 0; i < count; i++) {
    const [lat, rawLng] = coordinates[i]!;
    const lng = unwrapLongitude(rawLng, refLng);
    coords[2 * i] = lat;
    coords[2 * i + 1] = lng;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
  }
  return { coords, count, refLng, minLat, maxLat, minLng, maxLng };
}

/** True when the point lies inside the polygon or on its boundary (edges and vertices count as inside). */
export function polygonContains(coordinates: readonly LatLng[] | PreparedPolygon, lat: number, lng: number): boolean {
  const polygon = isPrepared(coordinates) ? coordinates : preparePolygon(coordinates);
  const x = unwrapLongitude(lng, polygon.refLng);
  const tol = EDGE_TOLERANCE_DEGREES;
  if (lat < polygon.minLat - tol || lat > polygon.maxLat + tol || x < polygon.minLng - tol || x > polygon.maxLng + tol)
    return false;
  return ringContains(polygon.coords, 0, polygon.count, polygon.refLng, lat, lng);
}

/**
 * Point in ring for `count` interleaved vertices starting at vertex `start` of `coords`, longitudes unwrapped around
 * `refLng`; edges and vertices count as inside. The flat form lets an index keep every polygon in one array.
 */
export function ringContains(
  coords: Float64Array,
  start: number,
  count: number,
  refLng: number,
  lat: number,
  lng: number,
): boolean {
  const x = unwrapLongitude(lng, refLng);
  // Ray casting (crossing number) in the plane of latitude and unwrapped longitude, as the map draws the shape.
  let inside = false;
  const first = 2 * start;
  const last = 2 * (start + count - 1);
  for (let i = first, j = last; i <= last; j = i, i += 2) {
    const yi = coords[i]!;
    const yj = coords[j]!;
    if (yi > lat !== yj > lat) {
      const xi = coords[i + 1]!;
      if (x < xi + ((coords[j + 1]! - xi) * (lat - yi)) / (yj - yi)) inside = !inside;
    }
  }
  if (inside) return true;
  // On the boundary (within a tenth of a millimetre) counts as inside.
  const tol2 = EDGE_TOLERANCE_DEGREES * EDGE_TOLERANCE_DEGREES;
  for (let i = first, j = last; i <= last; j = i, i += 2) {
    if (segmentDistanceSquared(x, lat, coords[j + 1]!, coords[j]!, coords[i + 1]!, coords[i]!) <= tol2) return true;
  }
  return false;
}

/** Results of `ringContainment`. */
export const RING_OUTSIDE = 0;
export const RING_INSIDE = 1;
export const RING_NEAR_BOUNDARY = 2;

/**
 * One pass over the ring (flat form as in `ringContains`) answering RING_NEAR_BOUNDARY when the point is within
 * `bufferMeters` (> 0) of an edge, else RING_INSIDE or RING_OUTSIDE (edges count as inside). The same answer as
 * `ringBoundaryDistanceSquared` then `ringContains`, at the cost of one pass: geofence buffers are tested per fix.
 */
export function ringContainment(
  coords: Float64Array,
  start: number,
  count: number,
  refLng: number,
  lat: number,
  lng: number,
  bufferMeters: number,
): number {
  if (!(bufferMeters > 0)) return ringContains(coords, start, count, refLng, lat, lng) ? RING_INSIDE : RING_OUTSIDE;
  const x = unwrapLongitude(lng, refLng);
  const kx = Math.cos(lat * DEG_TO_RAD) * METERS_PER_DEGREE;
  const ky = METERS_PER_DEGREE;
  const limit2 = bufferMeters * bufferMeters;
  const limitLat = bufferMeters / ky;
  const limitLng = bufferMeters / kx;
  let inside = false;
  const first = 2 * start;
  const last = 2 * (start + count - 1);
  for (let i = first, j = last; i <= last; j = i, i += 2) {
    const yi = coords[i]!;
    const yj = coords[j]!;
    const xi = coords[i + 1]!;
    const xj = coords[j + 1]!;
    if (yi > lat !== yj > lat && x < xi + ((xj - xi) * (lat - yi)) / (yj - yi)) inside = !inside;
    const dyi = yi - lat;
    const dyj = yj - lat;
    if ((dyi > limitLat && dyj > limitLat) || (dyi < -limitLat && dyj < -limitLat)) continue;
    const dxi = xi - x;
    const dxj = xj - x;
    if ((dxi > limitLng && dxj > limitLng) || (dxi < -limitLng && dxj < -limitLng)) continue;
    if (segmentDistanceSquared(0, 0, dxj * kx, dyj * ky, dxi * kx, dyi * ky) <= limit2) return RING_NEAR_BOUNDARY;
  }
  // A point on an edge is within any buffer, so it was answered above.
  return inside ? RING_INSIDE : RING_OUTSIDE;
}

/** Squared distance from (px, py) to the segment (ax, ay)-(bx, by), in the units of the inputs. */
function segmentDistanceSquared(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  let t = lengthSquared > 0 ? ((px - ax) * dx + (py - ay) * dy) / lengthSquared : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/**
 * Distance in metres from the point to the nearest edge of the polygon (inside or outside), in a local equirectangular
 * projection around the point: accurate to well under a metre at geofence scale (a few kilometres).
 */
export function distanceToPolygonBoundaryMeters(
  coordinates: readonly LatLng[] | PreparedPolygon,
  lat: number,
  lng: number,
): number {
  const polygon = isPrepared(coordinates) ? coordinates : preparePolygon(coordinates);
  return Math.sqrt(ringBoundaryDistanceSquared(polygon.coords, 0, polygon.count, polygon.refLng, lat, lng, 0));
}

/** True when the point is within `meters` of the polygon's boundary; stops at the first edge close enough. */
export function isNearPolygonBoundary(polygon: PreparedPolygon, lat: number, lng: number, meters: number): boolean {
  const limit = meters * meters;
  return ringBoundaryDistanceSquared(polygon.coords, 0, polygon.count, polygon.refLng, lat, lng, limit) <= limit;
}

/**
 * Smallest squared distance (m^2) from the point to an edge of the ring (flat form as in `ringContains`). With a
 * `stopBelow` limit it answers only whether an edge is that close: it returns early once one is, skips edges whose
 * box is farther than the limit, and returns Infinity when none is close.
 */
export function ringBoundaryDistanceSquared(
  coords: Float64Array,
  start: number,
  count: number,
  refLng: number,
  lat: number,
  lng: number,
  stopBelow: number,
): number {
  const x = unwrapLongitude(lng, refLng);
  const kx = Math.cos(lat * DEG_TO_RAD) * METERS_PER_DEGREE;
  const ky = METERS_PER_DEGREE;
  let best = Infinity;
  const first = 2 * start;
  const last = 2 * (start + count - 1);
  // The limit in degrees of latitude and of longitude, to skip far edges with comparisons only.
  const limit = Math.sqrt(stopBelow);
  const limitLat = limit / ky;
  const limitLng = limit / kx;
  for (let i = first, j = last; i <= last; j = i, i += 2) {
    if (stopBelow > 0) {
      const latI = coords[i]! - lat;
      const latJ = coords[j]! - lat;
      if ((latI > limitLat && latJ > limitLat) || (latI < -limitLat && latJ < -limitLat)) continue;
      const lngI = coords[i + 1]! - x;
      const lngJ = coords[j + 1]! - x;
      if ((lngI > limitLng && lngJ > limitLng) || (lngI < -limitLng && lngJ < -limitLng)) continue;
    }
    const d = segmentDistanceSquared(
      0,
      0,
      (coords[j + 1]! - x) * kx,
      (coords[j]! - lat) * ky,
      (coords[i + 1]! - x) * kx,
      (coords[i]! - lat) * ky,
    );
    if (d < best) {
      best = d;
      if (best <= stopBelow) return best;
    }
  }
  return best;
}

function isPrepared(value: readonly LatLng[] | PreparedPolygon): value is PreparedPolygon {
  return (value as PreparedPolygon).coords instanceof Float64Array;
}

/** Sign of the turn a -> b -> c: > 0 counter-clockwise, < 0 clockwise, 0 collinear. */
function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const value = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/** True when the segments a-b and c-d touch or cross. */
export function segmentsIntersect(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const o1 = orientation(ax, ay, bx, by, cx, cy);
  const o2 = orientation(ax, ay, bx, by, dx, dy);
  const o3 = orientation(cx, cy, dx, dy, ax, ay);
  const o4 = orientation(cx, cy, dx, dy, bx, by);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(ax, ay, bx, by, cx, cy)) ||
    (o2 === 0 && onSegment(ax, ay, bx, by, dx, dy)) ||
    (o3 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) ||
    (o4 === 0 && onSegment(cx, cy, dx, dy, bx, by))
  );
}

/**
 * True when two edges of the ring cross or touch other than where neighbours meet, or when an edge folds back
 * over its neighbour: the shapes the drawing tool refuses with "Error: shape edges cannot cross!".
 */
export function polygonEdgesCross(coordinates: readonly LatLng[]): boolean {
  const { coords, count: n } = preparePolygon(coordinates);
  const ys = new Float64Array(n);
  const xs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    ys[i] = coords[2 * i]!;
    xs[i] = coords[2 * i + 1]!;
  }
  if (n < 3) return false;
  for (let i = 0; i < n; i++) {
    const i2 = (i + 1) % n;
    const i3 = (i + 2) % n;
    // Neighbouring edges share a vertex; they are invalid only when collinear and folding back over each other.
    if (
      orientation(xs[i]!, ys[i]!, xs[i2]!, ys[i2]!, xs[i3]!, ys[i3]!) === 0 &&
      (xs[i2]! - xs[i]!) * (xs[i3]! - xs[i2]!) + (ys[i2]! - ys[i]!) * (ys[i3]! - ys[i2]!) < 0
    ) {
      return true;
    }
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // the closing edge neighbours the first
      const j2 = (j + 1) % n;
      if (segmentsIntersect(xs[i]!, ys[i]!, xs[i2]!, ys[i2]!, xs[j]!, ys[j]!, xs[j2]!, ys[j2]!)) return true;
    }
  }
  return false;
}

/** Signed area in square degrees (latitude by unwrapped longitude); 0 when every vertex lies on one line. */
export function polygonPlanarArea(coordinates: readonly LatLng[]): number {
  const { coords, count } = preparePolygon(coordinates);
  let twice = 0;
  for (let i = 0, j = count - 1; i < count; j = i++)
    twice += coords[2 * j + 1]! * coords[2 * i]! - coords[2 * i + 1]! * coords[2 * j]!;
  return twice / 2;
}

/**
 * The ring without repeated neighbouring vertices and without a closing vertex equal to the first
 * (drawing tools and GeoJSON sometimes add them; they are not edges).
 */
export function normalizeRing(coordinates: readonly LatLng[]): [number, number][] {
  const ring: [number, number][] = [];
  for (const [lat, lng] of coordinates) {
    const last = ring[ring.length - 1];
    if (!last || last[0] !== lat || last[1] !== lng) ring.push([lat, lng]);
  }
  while (ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1])
    ring.pop();
  return ring;
}

/** The 4 corners of an axis-aligned rectangle (south-west, north-west, north-east, south-east, as a Leaflet rectangle gives them). */
export function rectangleCorners(south: number, west: number, north: number, east: number): [number, number][] {
  return [
    [south, west],
    [north, west],
    [north, east],
    [south, east],
  ];
}

/**
 * True when 4 corners form a rectangle aligned with latitude and longitude, in ring order, with a non-zero size
 * (what the map's rectangle tool makes).
 */
export function isAxisAlignedRectangle(coordinates: readonly LatLng[]): boolean {
  if (coordinates.length !== 4) return false;
  const { coords } = preparePolygon(coordinates);
  const lats = [coords[0], coords[2], coords[4], coords[6]];
  const lngs = [coords[1], coords[3], coords[5], coords[7]];
  let previousAlongParallel: boolean | null = null;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    const sameLat = lats[i] === lats[j];
    const sameLng = lngs[i] === lngs[j];
    // Each side runs along a parallel or a meridian (exactly one coordinate stays the same), turning at each corner.
    if (sameLat === sameLng || sameLat === previousAlongParallel) return false;
    previousAlongParallel = sameLat;
  }
  return new Set(lats).size === 2 && new Set(lngs).size === 2;
}
