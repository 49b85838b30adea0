// The matching rule of decision 068, pure: a fix of one person is compared with the other's fix nearest in time, if
// that was taken at most NEAR_MATCH_SECONDS before or after it. Grouped into people and contacts.
import { CONTACT_GAP_SECONDS, NEAR_MATCH_SECONDS, haversineMeters } from '@prison/shared';

export interface TrackFix {
  /** Epoch milliseconds. */
  t: number;
  lat: number;
  lng: number;
}

export interface WornFix extends TrackFix {
  prisonerId: number | null;
  staffId: number | null;
}

const MATCH_MS = NEAR_MATCH_SECONDS * 1000;

/** The first index of a track (oldest first) whose time is at or after t. */
function firstAtOrAfter(track: readonly TrackFix[], t: number): number {
  let lo = 0;
  let hi = track.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (track[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The distance from a fix to a track at the fix's moment: to the track's fix nearest in time (the nearer of two as
 * near), if it was taken within NEAR_MATCH_SECONDS; null when none was.
 */
export function distanceToTrack(track: readonly TrackFix[], fix: TrackFix): number | null {
  let best: number | null = null;
  let bestGap = Infinity;
  for (let i = firstAtOrAfter(track, fix.t - MATCH_MS); i < track.length && track[i]!.t <= fix.t + MATCH_MS; i++) {
    const gap = Math.abs(track[i]!.t - fix.t);
    if (gap > bestGap) continue;
    const d = haversineMeters(fix.lat, fix.lng, track[i]!.lat, track[i]!.lng);
    if (gap < bestGap || d < best!) best = d;
    bestGap = gap;
  }
  return best;
}

export interface PersonNear {
  prisonerId: number | null;
  staffId: number | null;
  firstAt: number;
  lastAt: number;
  minDistanceM: number;
  fixes: number;
  closest: TrackFix;
}

/**
 * Everyone whose fixes came within radiusM of the subject: a track (a person) or a place. Fixes of nobody (an
 * unworn tracker) name no one and are left out.
 */
export function peopleNear(candidates: readonly WornFix[], subject: readonly TrackFix[] | { lat: number; lng: number }, radiusM: number): PersonNear[] {
  const people = new Map<string, PersonNear>();
  for (const fix of candidates) {
    if (fix.prisonerId === null && fix.staffId === null) continue;
    const d = Array.isArray(subject)
      ? distanceToTrack(subject, fix)
      : haversineMeters(fix.lat, fix.lng, (subject as { lat: number }).lat, (subject as { lng: number }).lng);
    if (d === null || d > radiusM) continue;
    const key = fix.prisonerId !== null ? `p${fix.prisonerId}` : `s${fix.staffId}`;
    const person = people.get(key);
    if (!person) {
      people.set(key, { prisonerId: fix.prisonerId, staffId: fix.prisonerId === null ? fix.staffId : null, firstAt: fix.t, lastAt: fix.t, minDistanceM: d, fixes: 1, closest: fix });
      continue;
    }
    person.firstAt = Math.min(person.firstAt, fix.t);
    person.lastAt = Math.max(person.lastAt, fix.t);
    person.fixes += 1;
    if (d < person.minDistanceM) {
      person.minDistanceM = d;
      person.closest = fix;
    }
  }
  return [...people.values()].sort((x, y) => x.minDistanceM - y.minDistanceM || x.firstAt - y.firstAt);
}

export interface Contact {
  startAt: number;
  endAt: number;
  minDistanceM: number;
  fixes: number;
}

/**
 * Every time two people were within radiusM, from both sides (each one's fixes against the other's track), so the
 * answer is the same whichever is named first. Moments within CONTACT_GAP_SECONDS of each other are one contact.
 */
export function contactsOf(a: readonly TrackFix[], b: readonly TrackFix[], radiusM: number, from: number, to: number): Contact[] {
  const moments: { t: number; d: number }[] = [];
  for (const [mine, theirs] of [
    [a, b],
    [b, a],
  ] as const) {
    for (const fix of mine) {
      if (fix.t < from || fix.t > to) continue;
      const d = distanceToTrack(theirs, fix);
      if (d !== null && d <= radiusM) moments.push({ t: fix.t, d });
    }
  }
  moments.sort((x, y) => x.t - y.t);
  const contacts: Contact[] = [];
  for (const moment of moments) {
    const last = contacts.at(-1);
    if (last && moment.t - last.endAt <= CONTACT_GAP_SECONDS * 1000) {
      last.endAt = moment.t;
      last.minDistanceM = Math.min(last.minDistanceM, moment.d);
      last.fixes += 1;
    } else contacts.push({ startAt: moment.t, endAt: moment.t, minDistanceM: moment.d, fixes: 1 });
  }
  return contacts;
}
