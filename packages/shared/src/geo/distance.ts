// Great-circle distance and circle containment (docs/CLIENT-CONTRACT.md: a circle contains a point within its radius).

/** Mean Earth radius (IUGG), the sphere every distance here is measured on. */
export const EARTH_RADIUS_METERS = 6_371_008.8;
export const DEG_TO_RAD = Math.PI / 180;
/** Metres per degree of latitude (and of longitude at the equator) on that sphere. */
export const METERS_PER_DEGREE = EARTH_RADIUS_METERS * DEG_TO_RAD;
/**
 * A point this close to a boundary counts as on it, so floating-point noise cannot move a point that lies exactly on
 * an edge to the outside (edges count as inside). A millimetre is far below any GPS precision.
 */
export const EDGE_TOLERANCE_METERS = 0.001;

/** Great-circle (haversine) distance in metres between two points given in degrees. */
export function haversineMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const sinHalfDLat = Math.sin((lat2 - lat1) * DEG_TO_RAD * 0.5);
  const sinHalfDLng = Math.sin((lng2 - lng1) * DEG_TO_RAD * 0.5);
  const a =
    sinHalfDLat * sinHalfDLat + Math.cos(lat1 * DEG_TO_RAD) * Math.cos(lat2 * DEG_TO_RAD) * sinHalfDLng * sinHalfDLng;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.sqrt(Math.min(1, a)));
}

/** True when the point is within `radius` metres (great-circle) of the centre; the edge counts as inside. */
export function circleContains(
  centerLat: number,
  centerLng: number,
  radius: number,
  lat: number,
  lng: number,
): boolean {
  return haversineMeters(centerLat, centerLng, lat, lng) <= radius + EDGE_TOLERANCE_METERS;
}

/** The point `distance` metres from the start along the initial `bearing` (degrees clockwise from north). */
export function destinationPoint(lat: number, lng: number, distance: number, bearing: number): [number, number] {
  const delta = distance / EARTH_RADIUS_METERS;
  const theta = bearing * DEG_TO_RAD;
  const phi1 = lat * DEG_TO_RAD;
  const sinPhi2 = Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta);
  const phi2 = Math.asin(Math.max(-1, Math.min(1, sinPhi2)));
  const lambda2 =
    lng * DEG_TO_RAD +
    Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi1), Math.cos(delta) - Math.sin(phi1) * sinPhi2);
  return [phi2 / DEG_TO_RAD, normalizeLongitude(lambda2 / DEG_TO_RAD)];
}

/** A longitude brought into [-180, 180]. */
export function normalizeLongitude(lng: number): number {
  if (lng >= -180 && lng <= 180) return lng;
  const wrapped = ((((lng + 180) % 360) + 360) % 360) - 180;
  return wrapped === -180 && lng > 0 ? 180 : wrapped;
}
