// What a geofence change does to the alarm (decision 041): each changed field, in plain words, and
// whether it makes the zone alert less. The server decides with it whether a change waits for a second person; the
// dialog uses the same function to ask for a reason before saving.
import { ALERT_TYPES, type AlertType } from './constants';
import { describeAppliesTo, describeSchedule, minutesOfDay, type Geofence, type ScheduleWindow } from './geofence';

export interface GeofenceFieldChange {
  field: 'name' | 'type' | 'alert_type' | 'dwell_seconds' | 'buffer_meters' | 'applies_to' | 'schedule' | 'shape';
  /** "Alert level: Critical → Informational". */
  text: string;
  /** The zone alerts less (or, for a reshape, may alert less somewhere) after this change. */
  weakens: boolean;
}

/** The fields a comparison reads; points may be `{ lat, lng }` or `[lat, lng]`, compared as numbers. */
export type GeofenceRules = Pick<
  Geofence,
  'name' | 'type' | 'alert_type' | 'dwell_seconds' | 'buffer_meters' | 'shape' | 'radius' | 'center_lat' | 'center_lng'
> & {
  coordinates: readonly ({ lat: number; lng: number } | readonly [number, number])[] | null;
  applies_to?: Geofence['applies_to'] | undefined;
  schedule?: readonly ScheduleWindow[] | null | undefined;
};

export const WEAKENING_NOTICE = "This weakens the alarm and needs a second person's approval";

const levelRank = (level: AlertType) => ALERT_TYPES.indexOf(level);

const MINUTES_PER_WEEK = 7 * 1440;

/** The minutes of the week (Monday 00:00 = 0) in which a schedule applies; null (always) is every minute. */
export function scheduleMinutes(schedule: readonly ScheduleWindow[] | null | undefined): Uint8Array {
  const minutes = new Uint8Array(MINUTES_PER_WEEK);
  if (!schedule) return minutes.fill(1);
  for (const window of schedule) {
    const start = minutesOfDay(window.start);
    const end = minutesOfDay(window.end);
    // An end at or before the start runs into the next day (decision 034).
    const length = end > start ? end - start : end + 1440 - start;
    for (const day of window.days) {
      const first = (day - 1) * 1440 + start;
      for (let m = 0; m < length; m++) minutes[(first + m) % MINUTES_PER_WEEK] = 1;
    }
  }
  return minutes;
}

/** Every minute the old schedule applied, the new one applies too. */
export function scheduleCovers(
  next: readonly ScheduleWindow[] | null | undefined,
  previous: readonly ScheduleWindow[] | null | undefined,
): boolean {
  if (!next) return true;
  const now = scheduleMinutes(next);
  const before = scheduleMinutes(previous);
  return before.every((applied, minute) => !applied || now[minute] === 1);
}

/**
 * Every prisoner the old scope named, the new one names too. Blocks and prisoners are compared as named (a prisoner
 * named alone is not taken as covered by his block: he can move to another block).
 */
export function scopeCovers(next: Geofence['applies_to'] | undefined, previous: Geofence['applies_to'] | undefined): boolean {
  if (!next) return true;
  if (!previous) return false;
  const has = <T>(list: readonly T[] | undefined, value: T) => (list ?? []).includes(value);
  return (
    (previous.blocks ?? []).every((block) => has(next.blocks, block)) &&
    (previous.prisoner_ids ?? []).every((id) => has(next.prisoner_ids, id))
  );
}

const pointKey = (point: { lat: number; lng: number } | readonly [number, number]) =>
  Array.isArray(point) ? `${point[0]},${point[1]}` : `${(point as { lat: number }).lat},${(point as { lng: number }).lng}`;

function sameShape(a: GeofenceRules, b: GeofenceRules): boolean {
  return (
    a.shape === b.shape &&
    a.radius === b.radius &&
    a.center_lat === b.center_lat &&
    a.center_lng === b.center_lng &&
    (a.coordinates ?? []).map(pointKey).join(';') === (b.coordinates ?? []).map(pointKey).join(';')
  );
}

const everyone = (scope: Geofence['applies_to'] | undefined) => describeAppliesTo(scope ?? null) || 'everyone';
const always = (schedule: readonly ScheduleWindow[] | null | undefined) => describeSchedule(schedule) || 'always';
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The changes from `before` to `after`, each with whether it weakens the alarm. A reshape counts as weakening: a moved
 * or redrawn edge can leave a place unwatched that was watched, and telling a larger from a moved zone is not exact
 * for polygons (decision 041). A rename weakens nothing.
 */
export function compareGeofences(before: GeofenceRules, after: GeofenceRules): GeofenceFieldChange[] {
  const changes: GeofenceFieldChange[] = [];
  if (before.name !== after.name) changes.push({ field: 'name', text: `Name: ${before.name} → ${after.name}`, weakens: false });
  if (before.type !== after.type) {
    // Positive and Negative are opposite rules: a swap stops every alert the zone gave.
    changes.push({ field: 'type', text: `Type: ${before.type} → ${after.type}`, weakens: true });
  }
  if (before.alert_type !== after.alert_type) {
    changes.push({
      field: 'alert_type',
      text: `Alert level: ${before.alert_type} → ${after.alert_type}`,
      weakens: levelRank(after.alert_type) < levelRank(before.alert_type),
    });
  }
  if (before.dwell_seconds !== after.dwell_seconds) {
    changes.push({
      field: 'dwell_seconds',
      text: `Dwell: ${before.dwell_seconds} s → ${after.dwell_seconds} s`,
      weakens: after.dwell_seconds > before.dwell_seconds,
    });
  }
  if (before.buffer_meters !== after.buffer_meters) {
    // A wider buffer lets a prisoner go further past the edge before the state changes.
    changes.push({
      field: 'buffer_meters',
      text: `Buffer: ${before.buffer_meters} m → ${after.buffer_meters} m`,
      weakens: after.buffer_meters > before.buffer_meters,
    });
  }
  if (!sameJson(before.applies_to, after.applies_to)) {
    changes.push({
      field: 'applies_to',
      text: `Applies to: ${everyone(before.applies_to)} → ${everyone(after.applies_to)}`,
      weakens: !scopeCovers(after.applies_to, before.applies_to),
    });
  }
  if (!sameJson(before.schedule, after.schedule)) {
    changes.push({
      field: 'schedule',
      text: `Times: ${always(before.schedule)} → ${always(after.schedule)}`,
      weakens: !scheduleCovers(after.schedule, before.schedule),
    });
  }
  if (!sameShape(before, after)) {
    changes.push({
      field: 'shape',
      text: before.shape === after.shape ? `Shape: ${before.shape} redrawn` : `Shape: ${before.shape} → ${after.shape}`,
      weakens: true,
    });
  }
  return changes;
}

export const weakensAlarm = (changes: readonly GeofenceFieldChange[]) => changes.some((change) => change.weakens);

/** Each type in plain words, beside the spec's term (docs/CLIENT-CONTRACT.md alert rule). */
export const GEOFENCE_TYPE_MEANINGS = {
  Positive: 'Positive: alert when a prisoner is inside',
  Negative: 'Negative: alert when a prisoner is outside',
} as const;
