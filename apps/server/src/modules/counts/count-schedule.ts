// Scheduled count times (COUNT_TIMES, "HH:MM" in the prison's TZ) as instants: pure, so the scheduler and its test
// read the same rule. A daylight-saving change is followed through the zone's offset at that local time.
import { WeekClock } from '../../tracking/geofence-schedule';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export interface CountSlot {
  /** "HH:MM", as configured. */
  time: string;
  at: Date;
}

/** The instant a local wall time (`localMs`: that time read as if UTC) falls on in the zone. */
function instantOf(clock: WeekClock, localMs: number): number {
  const first = localMs - clock.offsetMinutes(localMs) * MINUTE_MS;
  return localMs - clock.offsetMinutes(first) * MINUTE_MS;
}

/** The scheduled times of yesterday and today (local), as instants, in order. */
export function countSlotsAround(now: Date, times: readonly string[], timeZone: string): CountSlot[] {
  const clock = new WeekClock(timeZone);
  const local = now.getTime() + clock.offsetMinutes(now.getTime()) * MINUTE_MS;
  const today = Math.floor(local / DAY_MS) * DAY_MS;
  const slots: CountSlot[] = [];
  for (const day of [today - DAY_MS, today]) {
    for (const time of times) {
      const [hours, minutes] = time.split(':').map(Number) as [number, number];
      slots.push({ time, at: new Date(instantOf(clock, day + (hours * 60 + minutes) * MINUTE_MS)) });
    }
  }
  return slots.sort((a, b) => a.at.getTime() - b.at.getTime());
}
