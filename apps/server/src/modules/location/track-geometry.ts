// Pure geometry of a stored track: great-circle distance and which geofences hold a fix (DECISIONS.md item 1).
const EARTH_RADIUS_M = 6_371_008.8;
const toRad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle (haversine) distance in metres. */
export function distanceMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = toRad(lat2 - lat1);
  const dLng = toRad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

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
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
  contains(lat: number, lng: number): boolean;
}

/** True when the point is inside the ring or on its edge (ray casting; the edge counts as inside). */
export function ringContains(ring: [number, number][], lat: number, lng: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [latI, lngI] = ring[i]!;
    const [latJ, lngJ] = ring[j]!;
    if (lngI > lng !== lngJ > lng && lat < ((latJ - latI) * (lng - lngI)) / (lngJ - lngI) + latI) inside = !inside;
  }
  if (inside) return true;
  // Only a point that ray casting leaves outside needs the (rarer, costlier) on-the-edge test.
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    if (onSegment(ring[i]![0], ring[i]![1], ring[j]![0], ring[j]![1], lat, lng)) return true;
  }
  return false;
}

/**
 * Circle containment by great-circle distance. A flat-earth estimate (well within 1% over a prison's extent)
 * settles points clearly inside or outside; only those near the rim pay for the exact haversine.
 */
function circleContains(centerLat: number, centerLng: number, radius: number) {
  const metresPerDegLat = 111_195;
  const metresPerDegLng = 111_195 * Math.cos(toRad(centerLat));
  const inner = (radius * 0.99) ** 2;
  const outer = (radius * 1.01) ** 2;
  return (lat: number, lng: number) => {
    const dy = (lat - centerLat) * metresPerDegLat;
    const dx = (lng - centerLng) * metresPerDegLng;
    const flat = dx * dx + dy * dy;
    if (flat <= inner) return true;
    if (flat > outer) return false;
    return distanceMeters(centerLat, centerLng, lat, lng) <= radius;
  };
}

function onSegment(lat1: number, lng1: number, lat2: number, lng2: number, lat: number, lng: number): boolean {
  const cross = (lat2 - lat1) * (lng - lng1) - (lng2 - lng1) * (lat - lat1);
  if (Math.abs(cross) > 1e-12) return false;
  return lat >= Math.min(lat1, lat2) && lat <= Math.max(lat1, lat2) && lng >= Math.min(lng1, lng2) && lng <= Math.max(lng1, lng2);
}

export function prepareGeofence(fence: GeofenceShape): PreparedGeofence | null {
  if (fence.shape === 'Circle') {
    const { radius, centerLat, centerLng } = fence;
    if (radius == null || centerLat == null || centerLng == null) return null;
    const dLat = radius / 111_000;
    const dLng = radius / (111_000 * Math.max(0.01, Math.cos(toRad(centerLat))));
    return {
      geofenceId: fence.geofenceId,
      name: fence.name,
      minLat: centerLat - dLat,
      maxLat: centerLat + dLat,
      minLng: centerLng - dLng,
      maxLng: centerLng + dLng,
      contains: circleContains(centerLat, centerLng, radius),
    };
  }
  const ring = fence.coordinates;
  if (!ring || ring.length < 3) return null;
  return {
    geofenceId: fence.geofenceId,
    name: fence.name,
    minLat: Math.min(...ring.map((p) => p[0])),
    maxLat: Math.max(...ring.map((p) => p[0])),
    minLng: Math.min(...ring.map((p) => p[1])),
    maxLng: Math.max(...ring.map((p) => p[1])),
    contains: (lat, lng) => ringContains(ring, lat, lng),
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
export function timeInGeofences(fixes: readonly TrackFix[], fences: readonly PreparedGeofence[], maxGapSeconds: number): Map<string, number> {
  const seconds = new Map<string, number>();
  if (fences.length === 0) return seconds;
  for (let i = 0; i < fixes.length - 1; i++) {
    const fix = fixes[i]!;
    const held = Math.min((fixes[i + 1]!.t - fix.t) / 1000, maxGapSeconds);
    if (held <= 0) continue;
    for (const fence of fences) {
      if (fix.lat < fence.minLat || fix.lat > fence.maxLat || fix.lng < fence.minLng || fix.lng > fence.maxLng) continue;
      if (fence.contains(fix.lat, fix.lng)) seconds.set(fence.geofenceId, (seconds.get(fence.geofenceId) ?? 0) + held);
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
