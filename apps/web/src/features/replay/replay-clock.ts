// The replay's clock and positions: pure arithmetic over the replay answer's flat tracks
// ([t, lat, lng, ...], t in ms after the window's start), so every frame costs a binary search per tracker.
import type { Geofence } from '@prison/shared/geofence';
import type { ReplayGeofenceChange } from '@prison/shared/replay';
import { DEFAULT_DEVICE_OFFLINE_SECONDS } from '@prison/shared/settings';

export const REPLAY_SPEEDS = [1, 2, 5, 10, 30, 60] as const;
/** How far back a trail reaches: the last fixes before the clock, as the issue asks (~30-60 s). */
export const TRAIL_MS = 45_000;

/** The clock after `elapsedMs` of real time at `speed`, stopped at the end. */
export function advanceClock(time: number, elapsedMs: number, speed: number, end: number): number {
  return Math.min(end, time + elapsedMs * speed);
}

/** Index of the last fix at or before `t` (-1: none yet). */
export function fixIndexAt(points: readonly number[], t: number): number {
  const count = points.length / 3;
  if (count === 0 || points[0]! > t) return -1;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid * 3]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * How long a tracker stays where its last fix put it when no next fix follows (after its last, or before a gap): as
 * the live map shows it until it counts as offline. A window ending now still shows everyone who reported lately.
 */
export const HOLD_MS = DEFAULT_DEVICE_OFFLINE_SECONDS * 1000;

/**
 * Where the tracker was at `t`: on the straight line between the fixes around it, or at its last fix for up to
 * `holdMs` after it when the next is more than `maxGapMs` away (a loss of signal: no made-up path across it) or there
 * is none. Null before its first fix and after that hold.
 */
export function positionAt(points: readonly number[], t: number, maxGapMs = 300_000, holdMs = HOLD_MS): [number, number] | null {
  const i = fixIndexAt(points, t);
  if (i < 0) return null;
  const at = i * 3;
  const last = points.length / 3 - 1;
  const t0 = points[at]!;
  const held: [number, number] | null = t - t0 <= holdMs ? [points[at + 1]!, points[at + 2]!] : null;
  if (i === last) return held;
  const t1 = points[at + 3]!;
  if (t1 - t0 > maxGapMs) return held;
  const f = t1 === t0 ? 0 : (t - t0) / (t1 - t0);
  return [points[at + 1]! + (points[at + 4]! - points[at + 1]!) * f, points[at + 2]! + (points[at + 5]! - points[at + 2]!) * f];
}

/** The trail behind a tracker at `t`: its fixes in (t - trailMs, t], then where it is now. */
export function trailAt(points: readonly number[], t: number, trailMs = TRAIL_MS): [number, number][] {
  const end = fixIndexAt(points, t);
  if (end < 0) return [];
  const trail: [number, number][] = [];
  for (let i = end; i >= 0 && points[i * 3]! > t - trailMs; i--) trail.push([points[i * 3 + 1]!, points[i * 3 + 2]!]);
  trail.reverse();
  const now = positionAt(points, t);
  if (now) trail.push(now);
  return trail;
}

/** The geofences at `t`: those of the window's start with every change up to `t` applied. */
export function geofencesAt(start: readonly Geofence[], changes: readonly ReplayGeofenceChange[], t: number): Geofence[] {
  const byId = new Map(start.map((geofence) => [geofence.geofence_id, geofence]));
  for (const change of changes) {
    if (change.t > t) break;
    if (change.geofence) byId.set(change.geofence_id, change.geofence);
    else byId.delete(change.geofence_id);
  }
  return [...byId.values()];
}
