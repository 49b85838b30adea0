// Bounding boxes with a margin in metres, for the spatial index of geofences.
import { DEG_TO_RAD, EARTH_RADIUS_METERS, METERS_PER_DEGREE } from './distance';
import type { PreparedPolygon } from './polygon';

/**
 * A box in degrees. Longitudes may pass beyond +-180 when the shape crosses the antimeridian (the box is then
 * contiguous in unwrapped longitude); a box around a pole spans every longitude.
 */
export interface GeoBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/** The box holding every point within `radius + marginMeters` (great-circle) of the centre. */
export function circleBoundingBox(centerLat: number, centerLng: number, radius: number, marginMeters = 0): GeoBox {
  const delta = (radius + marginMeters) / EARTH_RADIUS_METERS; // angular radius
  const phi = centerLat * DEG_TO_RAD;
  const minPhi = phi - delta;
  const maxPhi = phi + delta;
  if (maxPhi >= Math.PI / 2 || minPhi <= -Math.PI / 2) {
    // The cap holds a pole: every longitude.
    return {
      minLat: Math.max(-90, minPhi / DEG_TO_RAD),
      maxLat: Math.min(90, maxPhi / DEG_TO_RAD),
      minLng: -180,
      maxLng: 180,
    };
  }
  // Widest longitude of a spherical cap (exact, not a small-angle approximation).
  const deltaLng = Math.asin(Math.min(1, Math.sin(delta) / Math.cos(phi))) / DEG_TO_RAD;
  return {
    minLat: minPhi / DEG_TO_RAD,
    maxLat: maxPhi / DEG_TO_RAD,
    minLng: centerLng - deltaLng,
    maxLng: centerLng + deltaLng,
  };
}

/**
 * The polygon's box grown by `marginMeters` on every side, measured the way `distanceToPolygonBoundaryMeters`
 * measures (local equirectangular), using the widest parallel so no point within the margin is left out.
 */
export function polygonBoundingBox(polygon: PreparedPolygon, marginMeters = 0): GeoBox {
  const dLat = marginMeters / METERS_PER_DEGREE;
  const minLat = polygon.minLat - dLat;
  const maxLat = polygon.maxLat + dLat;
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  if (widest >= 89.99)
    return { minLat: Math.max(-90, minLat), maxLat: Math.min(90, maxLat), minLng: -180, maxLng: 180 };
  const dLng = marginMeters / (METERS_PER_DEGREE * Math.cos(widest * DEG_TO_RAD));
  return { minLat, maxLat, minLng: polygon.minLng - dLng, maxLng: polygon.maxLng + dLng };
}

/** True when the point (longitude in [-180, 180]) lies in the box, trying the box's unwrapped longitudes too. */
export function boxContains(box: GeoBox, lat: number, lng: number): boolean {
  if (lat < box.minLat || lat > box.maxLat) return false;
  return (
    (lng >= box.minLng && lng <= box.maxLng) ||
    (lng + 360 >= box.minLng && lng + 360 <= box.maxLng) ||
    (lng - 360 >= box.minLng && lng - 360 <= box.maxLng)
  );
}
