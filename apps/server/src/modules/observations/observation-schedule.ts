// When an observation check is due (decision 063): each level's interval from the configuration, a prisoner's own
// interval over it, and the staggered due time, a random moment within the last third of the interval, so the round
// cannot be predicted from the last one.
import type { ObservationLevel } from '@prison/shared';
import type { Config } from '../../config';

export type ObservationIntervals = Record<ObservationLevel, number>;

export function intervalsFrom(config: Pick<Config, 'OBSERVATION_STANDARD_MINUTES' | 'OBSERVATION_ENHANCED_MINUTES' | 'OBSERVATION_HIGH_MINUTES' | 'OBSERVATION_CONSTANT_MINUTES'>): ObservationIntervals {
  return {
    standard: config.OBSERVATION_STANDARD_MINUTES,
    enhanced: config.OBSERVATION_ENHANCED_MINUTES,
    high: config.OBSERVATION_HIGH_MINUTES,
    constant: config.OBSERVATION_CONSTANT_MINUTES,
  };
}

/** The interval in force: the prisoner's own, else his level's. */
export function intervalOf(intervals: ObservationIntervals, level: ObservationLevel, own: number | null): number {
  return own ?? intervals[level];
}

/** `from` plus between two thirds and all of the interval; `random` in [0, 1) (injectable for tests). */
export function staggeredDueAt(from: Date, intervalMinutes: number, random: () => number = Math.random): Date {
  const share = 2 / 3 + random() / 3;
  return new Date(from.getTime() + Math.round(intervalMinutes * 60_000 * share));
}
