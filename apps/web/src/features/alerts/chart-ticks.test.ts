import { describe, expect, it } from 'vitest';
import { chartTicks, type DailyCounts } from './chart-ticks';

const day = (index: number, Critical = 0, Warning = 0, Informational = 0): DailyCounts => ({
  date: `2026-11-${String(index + 1).padStart(2, '0')}`,
  Critical,
  Warning,
  Informational,
});

describe('the 30-day chart scale', () => {
  it('tops at a round number at or above the busiest day, in whole-number ticks', () => {
    const { max, ticks } = chartTicks([day(0, 3, 4, 6), day(1, 1)]);
    expect(max).toBe(15);
    expect(ticks).toEqual([0, 5, 10, 15]);
  });

  it('draws an empty month on a 0..1 scale', () => {
    expect(chartTicks([day(0), day(1)])).toMatchObject({ max: 1, ticks: [0, 1] });
  });

  const labelledOf = (length: number) =>
    [...chartTicks(Array.from({ length }, (_, i) => day(i))).labelled].sort((a, b) => a - b);

  it('dates every fifth day of thirty and the last', () => {
    expect(labelledOf(30)).toEqual([0, 5, 10, 15, 20, 25, 29]);
  });

  it('leaves out a regular date that would crowd the last', () => {
    expect(labelledOf(28)).toEqual([0, 5, 10, 15, 20, 27]);
  });
});
