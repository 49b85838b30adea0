// The scale of the 30-day chart: a round top at or above the busiest day, whole-number ticks, and which days get a
// date under the axis (about six, always the first and the last).
import type { AlertDailyCount } from '@prison/shared/alert-workflow';

export type DailyCounts = AlertDailyCount;

export function chartTicks(days: readonly DailyCounts[]): { max: number; ticks: number[]; labelled: Set<number> } {
  const busiest = Math.max(0, ...days.map((day) => day.Critical + day.Warning + day.Informational));
  const step = niceStep(busiest / 4);
  const max = Math.max(step, Math.ceil(busiest / step) * step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= max; tick += step) ticks.push(tick);
  const every = Math.max(1, Math.ceil(days.length / 6));
  const labelled = new Set<number>();
  // The last day always; a regular day too close before it would overlap its date.
  for (let index = 0; index < days.length - 1; index += every) if (days.length - 1 - index >= every / 2) labelled.add(index);
  if (days.length > 0) labelled.add(days.length - 1);
  return { max, ticks, labelled };
}

/** 1, 2 or 5 times a power of ten, at least `raw` and at least 1 (counts are whole numbers). */
function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const factor = [1, 2, 5, 10].find((f) => f * power >= raw)!;
  return factor * power;
}
