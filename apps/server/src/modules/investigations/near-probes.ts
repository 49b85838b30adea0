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

/** A track's fixes looked at between two yields to other requests (about a millisecond of work at 100 m). */
const FIXES_PER_SLICE = 100;

/**
 * The probes of one subject, built interval by interval. A track's intervals come oldest first, so each cell's new
 * interval either extends that cell's last one or starts after it: merged as they come, without a sort.
 */
class ProbeBuilder {
  private readonly byCell = new Map<number, Probe[]>();

  constructor(
    private readonly radiusM: number,
    private readonly from: number,
    private readonly to: number,
  ) {}

  add(lat: number, lng: number, start: number, end: number): void {
    const clipped = { from: Math.max(start, this.from), to: Math.min(end, this.to) };
    if (clipped.from > clipped.to) return;
    for (const cell of gridCellsAround(lat, lng, this.radiusM)) {
      const list = this.byCell.get(cell);
      const last = list?.at(-1);
      if (last && clipped.from <= last.to) last.to = Math.max(last.to, clipped.to);
      else if (list) list.push({ cell, ...clipped });
      else this.byCell.set(cell, [{ cell, ...clipped }]);
    }
  }

  probes(): Probe[] {
    return [...this.byCell.values()].flat();
  }
}

/** The probes around a track (a person, oldest fix first) or a place, within the window [from, to]. */
export function probesFor(subject: readonly TrackFix[] | { lat: number; lng: number }, radiusM: number, from: number, to: number): Probe[] {
  const builder = new ProbeBuilder(radiusM, from, to);
  if (Array.isArray(subject)) {
    const margin = NEAR_MATCH_SECONDS * 1000;
    for (const fix of subject as readonly TrackFix[]) builder.add(fix.lat, fix.lng, fix.t - margin, fix.t + margin);
  } else {
    const place = subject as { lat: number; lng: number };
    builder.add(place.lat, place.lng, from, to);
  }
  return builder.probes();
}

/**
 * probesFor a track of any length without holding the thread: `slice` is awaited after every FIXES_PER_SLICE fixes
 * (it yields to other requests, and may refuse a question whose time is spent).
 */
export async function probesAlong(track: readonly TrackFix[], radiusM: number, from: number, to: number, slice: () => Promise<void>): Promise<Probe[]> {
  const builder = new ProbeBuilder(radiusM, from, to);
  const margin = NEAR_MATCH_SECONDS * 1000;
  for (let i = 0; i < track.length; i++) {
    if (i > 0 && i % FIXES_PER_SLICE === 0) await slice();
    builder.add(track[i]!.lat, track[i]!.lng, track[i]!.t - margin, track[i]!.t + margin);
  }
  return builder.probes();
}
