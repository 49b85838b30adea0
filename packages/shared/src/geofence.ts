// Geofences: their shapes, types and alert levels as the original client sends and reads them (docs/CLIENT-CONTRACT.md).
import { z } from 'zod';
import { ALERT_TYPES, GEOFENCE_SHAPES, GEOFENCE_TYPES } from './constants';
import { changeReason, weakeningUntil } from './pending-change';
import { boundedText, int32, nameText } from './text';

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

/** `{ lat, lng }` (Leaflet's LatLng): how every answer gives a point (docs/CLIENT-CONTRACT.md). */
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

// Who a geofence applies to and when (decisions 033 and 034).
/** The most windows, blocks and prisoners one geofence may name: plenty for a timetable, bounded for every fix. */
export const GEOFENCE_MAX_WINDOWS = 28;
export const GEOFENCE_MAX_BLOCKS = 50;
export const GEOFENCE_MAX_PRISONERS = 500;
/** Days of the week as the schedule numbers them (1 = Monday ... 7 = Sunday). */
export const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = z.string({ message: 'must be a time as HH:MM' }).regex(TIME_OF_DAY, 'must be a time as HH:MM (00:00 to 23:59)');
/** An end may also be 24:00 (the end of the day). */
const endOfWindow = z
  .string({ message: 'must be a time as HH:MM' })
  .refine((value) => TIME_OF_DAY.test(value) || value === '24:00', 'must be a time as HH:MM (00:00 to 24:00)');

/** Minutes since midnight of "HH:MM" (24:00 is 1440). */
export function minutesOfDay(value: string): number {
  return Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5));
}

/**
 * A weekly window in the prison's time zone (TZ). A window whose end is earlier than its start crosses midnight:
 * the part after midnight belongs to the start day's window (Fri 19:00-07:00 ends on Saturday at 07:00); an end equal
 * to the start is a whole day from the start (Sat 09:00-09:00 ends on Sunday at 09:00).
 */
export const scheduleWindow = z
  .object({
    days: z
      .array(z.number({ message: 'must be a day number from 1 (Monday) to 7 (Sunday)' }).int('must be a whole number').min(1, 'must be a day from 1 (Monday) to 7 (Sunday)').max(7, 'must be a day from 1 (Monday) to 7 (Sunday)'), { message: 'must be a list of day numbers' })
      .min(1, 'must name at least one day')
      .max(7, 'must name each day at most once')
      .refine((days) => new Set(days).size === days.length, 'must name each day at most once'),
    start: timeOfDay,
    end: endOfWindow,
  })
  .strict();
export type ScheduleWindow = z.infer<typeof scheduleWindow>;

/** null: always; otherwise the geofence applies only within these windows. */
export const geofenceSchedule = z
  .array(scheduleWindow, { message: 'must be a list of windows or null' })
  .min(1, 'must hold at least one window, or be null for always')
  .max(GEOFENCE_MAX_WINDOWS, `must hold at most ${GEOFENCE_MAX_WINDOWS} windows`)
  .nullable();

/** null: every tracked prisoner; otherwise the prisoners of these blocks and these prisoners. */
export const geofenceAppliesTo = z
  .object(
    {
      blocks: z
        .array(boundedText(50).min(1, 'must not be empty'), { message: 'must be a list of block names' })
        .max(GEOFENCE_MAX_BLOCKS, `must name at most ${GEOFENCE_MAX_BLOCKS} blocks`)
        .optional(),
      prisoner_ids: z
        .array(int32(), { message: 'must be a list of prisoner ids' })
        .max(GEOFENCE_MAX_PRISONERS, `must name at most ${GEOFENCE_MAX_PRISONERS} prisoners`)
        .optional(),
    },
    { message: 'must be { blocks, prisoner_ids } or null for everyone' },
  )
  .strict()
  .refine((scope) => (scope.blocks?.length ?? 0) + (scope.prisoner_ids?.length ?? 0) > 0, {
    message: 'must name at least one block or prisoner, or be null for everyone',
  })
  .transform((scope) => ({
    ...(scope.blocks?.length ? { blocks: [...new Set(scope.blocks)].sort() } : {}),
    ...(scope.prisoner_ids?.length ? { prisoner_ids: [...new Set(scope.prisoner_ids)].sort((a, b) => a - b) } : {}),
  }))
  .nullable();
export type GeofenceAppliesTo = NonNullable<z.output<typeof geofenceAppliesTo>>;
export type GeofenceSchedule = ScheduleWindow[];

const appliesToAnswer = z.object({ blocks: z.array(z.string()).optional(), prisoner_ids: z.array(z.number()).optional() }).nullable();
const scheduleAnswer = z.array(z.object({ days: z.array(z.number()), start: z.string(), end: z.string() })).nullable();

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
  /** Scopes and schedules (decisions 033, 034): null for everyone, and null for always (decision 017's fields are unchanged). */
  applies_to: appliesToAnswer,
  schedule: scheduleAnswer,
});
/** A geofence as every answer gives it: points are `{ lat, lng }`. */
export type Geofence = z.infer<typeof geofence>;

/** A geofence as stored and evaluated by the engine: points are `[lat, lng]` pairs (compact, read by `geo/`). */
export type StoredGeofence = Omit<Geofence, 'coordinates' | 'applies_to' | 'schedule'> & {
  coordinates: LatLngTuple[] | null;
  /** Absent or null: every prisoner, always. */
  applies_to?: GeofenceAppliesTo | null;
  schedule?: GeofenceSchedule | null;
};

/** The answer's form of a stored geofence. */
export function geofenceAnswer(stored: StoredGeofence): Geofence {
  return {
    ...stored,
    coordinates: stored.coordinates?.map(toGeoPoint) ?? null,
    applies_to: stored.applies_to ?? null,
    schedule: stored.schedule ?? null,
  };
}

// Format characters (\p{Cf}: zero-width, bidi controls, soft hyphen, invisible operators) have no place in an id: an
// id is shown and compared as typed, so `demo-perimeter\u200b` would pass for the perimeter's id.
const FORMAT_CHARACTER = /\p{Cf}/u;

/** A geofence id, checked like a name (no invisible or text-direction characters) and without any format character. */
export const geofenceId = nameText(100)
  .min(1, 'geofence_id is required')
  .refine((value) => !FORMAT_CHARACTER.test(value), 'must not contain invisible or text-direction characters');

/**
 * How long a tracker must stay across a zone's boundary before the crossing counts: a crossing and back within it
 * raises nothing (GPS jitter, a step over the line). Bounded: a longer dwell hides a real escape.
 */
export const DEFAULT_DWELL_SECONDS = 10;
export const MAX_DWELL_SECONDS = 300;
const dwellMessage = `must be a whole number of seconds from 0 to ${MAX_DWELL_SECONDS}`;
const dwellSeconds = z.number({ message: dwellMessage }).int(dwellMessage).min(0, dwellMessage).max(MAX_DWELL_SECONDS, dwellMessage);

const common = {
  geofence_id: geofenceId,
  name: nameText(100).min(1, 'name is required'),
  type: z.enum(GEOFENCE_TYPES, { message: 'type must be Positive or Negative' }),
  alert_type: z.enum(ALERT_TYPES, { message: `alert_type must be one of ${ALERT_TYPES.join(', ')}` }).default('Informational'),
  dwell_seconds: dwellSeconds.default(DEFAULT_DWELL_SECONDS),
  buffer_meters: z.number().min(0, 'buffer_meters must be 0 or more').max(10_000).default(0),
  applies_to: geofenceAppliesTo.default(null),
  schedule: geofenceSchedule.default(null),
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
  dwell_seconds: dwellSeconds.optional(),
  buffer_meters: z.number().min(0).max(10_000).optional(),
  applies_to: geofenceAppliesTo.optional(),
  schedule: geofenceSchedule.optional(),
  /** Why, when the change weakens the alarm: it then waits for a second person's approval (decision 041). */
  reason: changeReason.optional(),
  /**
   * When a weakening of a Critical or Warning zone ends (default 8 hours from the request, at most 7 days): it is
   * then reverted by itself (decision 091).
   */
  until: weakeningUntil.optional(),
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

/**
 * Colours on the map, by what a geofence does (its alert level), not by its shape: Critical red, Warning amber,
 * Informational blue (decision 041; docs/CLIENT-CONTRACT.md coloured by shape). The shape shows in its outline.
 */
export const GEOFENCE_LEVEL_COLORS = { Critical: '#dc2626', Warning: '#d97706', Informational: '#2563eb' } as const;
export const geofenceColor = (alertType: keyof typeof GEOFENCE_LEVEL_COLORS) => GEOFENCE_LEVEL_COLORS[alertType];

/** "Mon-Fri", "Sat, Sun", "Every day": runs of three days or more are shown as a range. */
export function describeDays(days: readonly number[]): string {
  const sorted = [...new Set(days)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  if (sorted.length === 7) return 'Every day';
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const first = WEEKDAY_NAMES[sorted[i]! - 1]!;
    const last = WEEKDAY_NAMES[sorted[j]! - 1]!;
    if (j - i >= 2) parts.push(`${first}-${last}`);
    else for (let k = i; k <= j; k++) parts.push(WEEKDAY_NAMES[sorted[k]! - 1]!);
    i = j + 1;
  }
  return parts.join(', ');
}

/** "Mon-Fri 09:00-17:00, Sat 10:00-12:00"; empty for always. */
export function describeSchedule(schedule: readonly ScheduleWindow[] | null | undefined): string {
  if (!schedule?.length) return '';
  return schedule.map((w) => `${describeDays(w.days)} ${w.start}-${w.end}`).join(', ');
}

/** "Block A", "Blocks A, B", "John Doe", "3 prisoners"; empty for everyone. `nameOf` gives a prisoner's name. */
export function describeAppliesTo(
  appliesTo: GeofenceAppliesTo | null | undefined,
  nameOf: (prisonerId: number) => string | undefined = () => undefined,
): string {
  if (!appliesTo) return '';
  const parts: string[] = [];
  const blocks = appliesTo.blocks ?? [];
  if (blocks.length) parts.push(`${blocks.length === 1 ? 'Block' : 'Blocks'} ${blocks.join(', ')}`);
  const ids = appliesTo.prisoner_ids ?? [];
  if (ids.length > 0 && ids.length <= 3) parts.push(ids.map((id) => nameOf(id) ?? `Prisoner ${id}`).join(', '));
  else if (ids.length > 3) parts.push(`${ids.length} prisoners`);
  return parts.join(', ');
}

/** The list's line for a geofence's rules: "Mon-Fri 09:00-17:00 · Block A"; empty for everyone, always. */
export function describeGeofenceRules(
  fence: { applies_to?: GeofenceAppliesTo | null; schedule?: readonly ScheduleWindow[] | null },
  nameOf?: (prisonerId: number) => string | undefined,
): string {
  return [describeSchedule(fence.schedule), describeAppliesTo(fence.applies_to, nameOf)].filter(Boolean).join(' · ');
}
