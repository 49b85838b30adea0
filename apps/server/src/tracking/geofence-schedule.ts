// Weekly geofence schedules in the prison's time zone (decision 034). A schedule is a set of intervals on the week
// in local wall-clock minutes (Monday 00:00 = 0); a window that crosses midnight continues into the next day (Sunday's
// into Monday's). Whether a schedule is active at an instant depends only on the local wall time of that instant, read
// with Intl (so daylight saving is the time zone database's, not ours). The engine asks for the next instant at which
// any schedule may change (a window edge, or a daylight-saving change) and recomputes only then.
import { minutesOfDay, type ScheduleWindow } from '@prison/shared';

export const MINUTES_PER_WEEK = 7 * 1440;
const MINUTE_MS = 60_000;

/** A schedule as intervals [start, end) in minutes of the week; `end` may pass the week's end (Sunday night). */
export type WeekIntervals = readonly (readonly [number, number])[];

export function compileSchedule(windows: readonly ScheduleWindow[]): WeekIntervals {
  const intervals: [number, number][] = [];
  for (const window of windows) {
    const start = minutesOfDay(window.start);
    let end = minutesOfDay(window.end);
    if (end <= start) end += 1440; // crosses midnight: the part after it belongs to the start day's window
    for (const day of window.days) intervals.push([(day - 1) * 1440 + start, (day - 1) * 1440 + end]);
  }
  return intervals;
}

/** Is minute `m` of the week (0 .. MINUTES_PER_WEEK - 1) inside one of the intervals? */
export function activeInWeek(intervals: WeekIntervals, m: number): boolean {
  for (const [start, end] of intervals) {
    if (m >= start && m < end) return true;
    if (end > MINUTES_PER_WEEK && m < end - MINUTES_PER_WEEK) return true;
  }
  return false;
}

/** The minutes of the week at which one of the intervals starts or ends. */
export function weekBoundaries(schedules: Iterable<WeekIntervals>): number[] {
  const set = new Set<number>();
  for (const intervals of schedules)
    for (const [start, end] of intervals) {
      set.add(start % MINUTES_PER_WEEK);
      set.add(end % MINUTES_PER_WEEK);
    }
  return [...set].sort((a, b) => a - b);
}

/** Throws when the name is not a time zone Intl knows. */
export function checkTimeZone(timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
}

/** The process's own time zone (TZ in the environment, else the system's), or UTC. */
export function defaultTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // ICU's answer to a TZ it cannot read (an empty one, in a process that did not drop it): no zone, so UTC.
  return zone && zone !== 'Etc/Unknown' ? zone : 'UTC';
}

/** Local wall time in one time zone. */
export class WeekClock {
  private readonly format: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
  }

  /** The zone's offset from UTC at an instant, in whole minutes. */
  offsetMinutes(ms: number): number {
    const minute = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
    const parts: Record<string, number> = {};
    for (const part of this.format.formatToParts(minute)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
    const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!);
    return Math.round((local - minute) / MINUTE_MS);
  }

  /** Minute of the local week (Monday 00:00 = 0) at an instant. */
  minuteOfWeek(ms: number): number {
    const local = new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS + this.offsetMinutes(ms) * MINUTE_MS);
    const weekday = (local.getUTCDay() + 6) % 7;
    return weekday * 1440 + local.getUTCHours() * 60 + local.getUTCMinutes();
  }

  /**
   * The first instant after `from` at which the local time reaches one of `boundaries` (minutes of the week) or the
   * zone's offset changes (a daylight-saving change can skip or repeat a boundary): before it, nothing can change.
   */
  nextEdge(from: number, boundaries: readonly number[]): number {
    if (boundaries.length === 0) return Infinity;
    const base = Math.floor(from / MINUTE_MS) * MINUTE_MS;
    const offset = this.offsetMinutes(base);
    const m = this.minuteOfWeek(base);
    let next = boundaries.find((b) => b > m);
    const delta = next !== undefined ? next - m : boundaries[0]! + MINUTES_PER_WEEK - m;
    next = base + delta * MINUTE_MS;
    if (this.offsetMinutes(next) === offset) return next;
    // The offset changes within (base, next]: find its first minute (at most one change within a week).
    let low = base;
    let high = next;
    while (high - low > MINUTE_MS) {
      const mid = low + Math.floor((high - low) / MINUTE_MS / 2) * MINUTE_MS;
      if (this.offsetMinutes(mid) === offset) low = mid;
      else high = mid;
    }
    return high;
  }
}
