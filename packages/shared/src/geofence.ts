// Geofences (SPEC.md sections 2, 3, 5 and 7; DECISIONS.md items 1 and 11).
import { z } from 'zod';
import { ALERT_TYPES, GEOFENCE_SHAPES, GEOFENCE_TYPES } from './constants';
import { boundedText, nameText } from './text';

/** A circle's radius, in metres: a cell is more than 1 m across, a prison less than 100 km. */
export const GEOFENCE_MIN_RADIUS = 1;
export const GEOFENCE_MAX_RADIUS = 100_000;
/** The most corners a polygon may have: plenty for a drawn zone, few enough to test every fix against. */
export const GEOFENCE_MAX_POINTS = 1000;

const latitude = z.number().finite().min(-90, 'latitude must be between -90 and 90').max(90, 'latitude must be between -90 and 90');
const longitude = z.number().finite().min(-180, 'longitude must be between -180 and 180').max(180, 'longitude must be between -180 and 180');
/** [latitude, longitude]: how points are stored and how the geometry module reads them. */
export const latLng = z.tuple([latitude, longitude]);
export type LatLngTuple = z.infer<typeof latLng>;

/** `{ lat, lng }` (Leaflet's LatLng): how every answer gives a point (DECISIONS.md item 18). */
export const geoPoint = z.object({ lat: latitude, lng: longitude });
export type GeoPoint = z.infer<typeof geoPoint>;

/**
 * A point in a request: `{ lat, lng }` (what the spec's client sends) or a `[lat, lng]` pair, read as a pair. A bad
 * value is named by its place in the form given (`coordinates.1.lat` or `coordinates.1.0`).
 */
export const pointInput = z
  .union([geoPoint, latLng])
  .transform((point): LatLngTuple => (Array.isArray(point) ? point : [point.lat, point.lng]));

export const toGeoPoint = ([lat, lng]: readonly [number, number]): GeoPoint => ({ lat, lng });

export const geofence = z.object({
  geofence_id: z.string(),
  shape: z.enum(GEOFENCE_SHAPES),
  name: z.string(),
  type: z.enum(GEOFENCE_TYPES),
  alert_type: z.enum(ALERT_TYPES),
  radius: z.number().nullable(),
  center_lat: z.number().nullable(),
  center_lng: z.number().nullable(),
  coordinates: z.array(geoPoint).nullable(),
  dwell_seconds: z.number().int(),
  buffer_meters: z.number(),
});
/** A geofence as every answer gives it: points are `{ lat, lng }`. */
export type Geofence = z.infer<typeof geofence>;

/** A geofence as stored and evaluated by the engine: points are `[lat, lng]` pairs (compact, read by `geo/`). */
export type StoredGeofence = Omit<Geofence, 'coordinates'> & { coordinates: LatLngTuple[] | null };

/** The answer's form of a stored geofence. */
export function geofenceAnswer(stored: StoredGeofence): Geofence {
  return { ...stored, coordinates: stored.coordinates?.map(toGeoPoint) ?? null };
}

const common = {
  geofence_id: boundedText(100).min(1, 'geofence_id is required'),
  name: nameText(100).min(1, 'name is required'),
  type: z.enum(GEOFENCE_TYPES, { message: 'type must be Positive or Negative' }),
  alert_type: z.enum(ALERT_TYPES, { message: `alert_type must be one of ${ALERT_TYPES.join(', ')}` }).default('Informational'),
  dwell_seconds: z.number().int().min(0, 'dwell_seconds must be 0 or more').max(86_400).default(0),
  buffer_meters: z.number().min(0, 'buffer_meters must be 0 or more').max(10_000).default(0),
};
const radiusMessage = `must be between ${GEOFENCE_MIN_RADIUS} and ${GEOFENCE_MAX_RADIUS} metres`;

// The geometry of each shape, shared by create and update so a new shape is checked the same way either way.
const circleGeometry = {
  shape: z.literal('Circle'),
  radius: z
    .number({ message: 'radius must be a number of metres' })
    .min(GEOFENCE_MIN_RADIUS, radiusMessage)
    .max(GEOFENCE_MAX_RADIUS, radiusMessage),
  center_lat: latitude,
  center_lng: longitude,
};
const polygonGeometry = {
  shape: z.literal('Polygon'),
  coordinates: z
    .array(pointInput)
    .min(3, 'a polygon needs at least 3 points')
    .max(GEOFENCE_MAX_POINTS, `a polygon has at most ${GEOFENCE_MAX_POINTS} points`),
};
const rectangleGeometry = {
  shape: z.literal('Rectangle'),
  coordinates: z.array(pointInput).length(4, 'a rectangle has 4 corners'),
};
const shapeMessage = { message: `shape must be one of ${GEOFENCE_SHAPES.join(', ')}` };

/** POST /geofence/add. Self-intersection and rectangle corners are checked on the server with the geometry module. */
export const geofenceInput = z.discriminatedUnion(
  'shape',
  [
    z.object({ ...common, ...circleGeometry }),
    z.object({ ...common, ...polygonGeometry }),
    z.object({ ...common, ...rectangleGeometry }),
  ],
  shapeMessage,
);
/** The body as the server reads it: points are `[lat, lng]` pairs. */
export type GeofenceInput = z.infer<typeof geofenceInput>;
/** The body as a client may send it: points as `{ lat, lng }` or `[lat, lng]`. */
export type GeofenceRequest = z.input<typeof geofenceInput>;

/** The geometry fields of a geofence, as `geofenceInput` has them. */
export type GeofenceGeometry =
  | Pick<Extract<GeofenceInput, { shape: 'Circle' }>, 'shape' | 'radius' | 'center_lat' | 'center_lng'>
  | Pick<Extract<GeofenceInput, { shape: 'Polygon' | 'Rectangle' }>, 'shape' | 'coordinates'>;

const updateFields = {
  name: common.name.optional(),
  type: common.type.optional(),
  alert_type: z.enum(ALERT_TYPES).optional(),
  dwell_seconds: z.number().int().min(0).max(86_400).optional(),
  buffer_meters: z.number().min(0).max(10_000).optional(),
};
// Without a shape, a geometry field would be dropped unseen: refuse it, naming the field.
const noShape = z.undefined({ message: 'shape is required to change the geometry' }).optional();

/**
 * PUT /geofence/update/{id}: rename, change type, alert type, dwell, buffer, and optionally the shape. A new shape is
 * sent whole, with the same fields and checks as `geofenceInput` (the server adds the same crossing checks).
 */
export const geofenceUpdate = z.discriminatedUnion(
  'shape',
  [
    z.object({
      ...updateFields,
      shape: z.undefined().optional(),
      radius: noShape,
      center_lat: noShape,
      center_lng: noShape,
      coordinates: noShape,
    }),
    z.object({ ...updateFields, ...circleGeometry }),
    z.object({ ...updateFields, ...polygonGeometry }),
    z.object({ ...updateFields, ...rectangleGeometry }),
  ],
  shapeMessage,
);
export type GeofenceUpdate = z.infer<typeof geofenceUpdate>;
export type GeofenceUpdateRequest = z.input<typeof geofenceUpdate>;

/** Colours on the map (SPEC.md section 9). */
export const GEOFENCE_COLORS = { Circle: 'blue', Polygon: 'red', Rectangle: 'green' } as const;
