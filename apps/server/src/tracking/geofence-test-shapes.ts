// Geofences and points for the engine and index tests, around (0, 0) where a degree is 111,195 m.
import type { StoredGeofence } from '@prison/shared';
import { destinationPoint, rectangleCorners } from '@prison/shared';

export function circleFence(overrides: Partial<StoredGeofence> & { geofence_id: string }): StoredGeofence {
  return {
    shape: 'Circle',
    name: overrides.geofence_id,
    type: 'Positive',
    alert_type: 'Warning',
    radius: 100,
    center_lat: 0,
    center_lng: 0,
    coordinates: null,
    dwell_seconds: 0,
    buffer_meters: 0,
    ...overrides,
  };
}

export function polygonFence(
  coordinates: [number, number][],
  overrides: Partial<StoredGeofence> & { geofence_id: string },
): StoredGeofence {
  return {
    shape: coordinates.length === 4 ? 'Rectangle' : 'Polygon',
    name: overrides.geofence_id,
    type: 'Negative',
    alert_type: 'Critical',
    radius: null,
    center_lat: null,
    center_lng: null,
    coordinates,
    dwell_seconds: 0,
    buffer_meters: 0,
    ...overrides,
  };
}

/** The square of +-0.01 degrees (about 2.2 km wide) around (0, 0). */
export const perimeterCorners = rectangleCorners(-0.01, -0.01, 0.01, 0.01);

/** The point `meters` east of (0, 0). */
export function east(meters: number): [number, number] {
  return destinationPoint(0, 0, meters, 90);
}
