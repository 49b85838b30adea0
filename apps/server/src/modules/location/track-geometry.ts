// The geometry of a stored track: distance along it and time inside each geofence. Containment is the shared,
// exact geometry of packages/shared/src/geo (docs/CLIENT-CONTRACT.md), the same answer the live engine gives.
import {
  boxContains,
  circleBoundingBox,
  circleContains,
  DEG_TO_RAD,
  haversineMeters,
  METERS_PER_DEGREE,
  polygonBoundingBox,
  polygonContains,
  preparePolygon,
  type GeoBox,
} from '@prison/shared';

/** Great-circle (haversine) distance in metres. */
export const distanceMeters = haversineMeters;

export interface GeofenceShape {
  geofenceId: string;
  name: string;
  shape: string;
  radius: number | null;
  centerLat: number | null;
  centerLng: number | null;
  /** [[lat, lng], ...] */
  coordinates: [number, number][] | null;
}

/** A geofence ready for many containment tests: a bounding box first, then the exact test. */
export interface PreparedGeofence {
  geofenceId: string;
  name: string;
  box: GeoBox;
  contains(lat: number, lng: number): boolean;
}

/**
 * Circle containment. A flat-earth estimate (well within 1% over a prison's extent, away from the poles) settles
 * points clearly inside or outside; only points near the rim pay for the exact great-circle test.
 */
function circleTest(centerLat: number, centerLng: number, radius: number) {
  const exact = (lat: number, lng: number) => circleContains(centerLat, centerLng, radius, lat, lng);
  if (Math.abs(centerLat) > 80 || radius > 50_000) return exact;
  const metresPerDegLng = METERS_PER_DEGREE * Math.cos(centerLat * DEG_TO_RAD);
  const inner = (radius * 0.99) ** 2;
  const outer = (radius * 1.01) ** 2;
  return (lat: number, lng: number) => {
    const dy = (lat - centerLat) * METERS_PER_DEGREE;
    const dx = (lng - centerLng) * metresPerDegLng;
    const flat = dx * dx + dy * dy;
    if (flat <= inner) return true;
    if (flat > outer) return false;
    return exact(lat, lng);
  };
}

export function prepareGeofence(fence: GeofenceShape): PreparedGeofence | null {
  const { geofenceId, name } = fence;
  if (fence.shape === 'Circle') {
    const { radius, centerLat, centerLng } = fence;
    if (radius == null || centerLat == null || centerLng == null) return null;
    return {
      geofenceId,
      name,
      box: circleBoundingBox(centerLat, centerLng, radius),
      contains: circleTest(centerLat, centerLng, radius),
    };
  }
  if (!fence.coordinates || fence.coordinates.length < 3) return null;
  const polygon = preparePolygon(fence.coordinates);
  return {
    geofenceId,
    name,
    box: polygonBoundingBox(polygon),
    contains: (lat, lng) => polygonContains(polygon, lat, lng),
  };
}

export interface TrackFix {
  /** epoch milliseconds */
  t: number;
  lat: number;
  lng: number;
}

/** Metres along the track, fix to fix. */
export function trackDistance(fixes: readonly TrackFix[]): number {
  let total = 0;
  for (let i = 1; i < fixes.length; i++) {
    const a = fixes[i - 1]!;
    const b = fixes[i]!;
    total += distanceMeters(a.lat, a.lng, b.lat, b.lng);
  }
  return total;
}

/**
 * Seconds spent inside each geofence: each fix's state holds until the next fix, but a gap longer than
 * `maxGapSeconds` is a loss of signal and counts for at most that long.
 */
export function timeInGeofences(
  fixes: readonly TrackFix[],
  fences: readonly PreparedGeofence[],
  maxGapSeconds: number,
): Map<string, number> {
  const seconds = new Map<string, number>();
  if (fences.length === 0) return seconds;
  for (let i = 0; i < fixes.length - 1; i++) {
    const fix = fixes[i]!;
    const held = Math.min((fixes[i + 1]!.t - fix.t) / 1000, maxGapSeconds);
    if (held <= 0) continue;
    for (const fence of fences) {
      if (boxContains(fence.box, fix.lat, fix.lng) && fence.contains(fix.lat, fix.lng))
        seconds.set(fence.geofenceId, (seconds.get(fence.geofenceId) ?? 0) + held);
    }
  }
  return seconds;
}

/** Indexes of at most `maxPoints` fixes, evenly spread by count, always keeping the first and the last. */
export function thinIndexes(total: number, maxPoints: number): number[] {
  if (total <= maxPoints) return Array.from({ length: total }, (_, i) => i);
  const step = (total - 1) / (maxPoints - 1);
  const indexes: number[] = [];
  for (let k = 0; k < maxPoints; k++) indexes.push(Math.round(k * step));
  return indexes;
}
