// Where and when to look for the people near a subject (decision 068): per grid cell, the time intervals in which a
// fix there could be within the radius of the subject; overlapping intervals of one cell merged, so a subject who
// stood still for hours costs a handful of index ranges.
import { NEAR_MATCH_SECONDS } from '@prison/shared';
import { gridCellsAround } from '../../db/position-grid';
import type { TrackFix } from './near-matching';

export interface Probe {
  cell: number;
  /** Epoch milliseconds, inclusive. */
  from: number;
  to: number;
}

/** The probes around a track (a person) or a place, within the window [from, to]. */
export function probesFor(subject: readonly TrackFix[] | { lat: number; lng: number }, radiusM: number, from: number, to: number): Probe[] {
  const byCell = new Map<number, { from: number; to: number }[]>();
  const add = (lat: number, lng: number, start: number, end: number) => {
    const clipped = { from: Math.max(start, from), to: Math.min(end, to) };
    if (clipped.from > clipped.to) return;
    for (const cell of gridCellsAround(lat, lng, radiusM)) {
      const list = byCell.get(cell);
      if (list) list.push(clipped);
      else byCell.set(cell, [clipped]);
    }
  };
  if (Array.isArray(subject)) {
    const margin = NEAR_MATCH_SECONDS * 1000;
    for (const fix of subject as readonly TrackFix[]) add(fix.lat, fix.lng, fix.t - margin, fix.t + margin);
  } else {
    const place = subject as { lat: number; lng: number };
    add(place.lat, place.lng, from, to);
  }
  const probes: Probe[] = [];
  for (const [cell, intervals] of byCell) {
    intervals.sort((x, y) => x.from - y.from);
    let current = { ...intervals[0]! };
    for (const next of intervals.slice(1)) {
      if (next.from <= current.to) current.to = Math.max(current.to, next.to);
      else {
        probes.push({ cell, ...current });
        current = { ...next };
      }
    }
    probes.push({ cell, ...current });
  }
  return probes;
}
