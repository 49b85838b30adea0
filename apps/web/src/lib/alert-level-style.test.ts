import { describe, expect, it } from 'vitest';
import { ALERT_TYPES } from '@prison/shared/constants';
import { LEVEL_BADGE_CLASS, LEVEL_TEXT_CLASS, zoneStateStyle } from './alert-level-style';

const RED_OR_AMBER = /\b(?:bg|text|border)-(?:red|amber|orange|yellow)-/;

describe('colour by level', () => {
  it('draws only Critical and Warning in red or amber; Informational is blue', () => {
    for (const level of ALERT_TYPES) {
      const classes = `${LEVEL_BADGE_CLASS[level]} ${LEVEL_TEXT_CLASS[level]} ${zoneStateStyle(level)!.className}`;
      if (level === 'Informational') {
        expect(classes, level).not.toMatch(RED_OR_AMBER);
        expect(classes, level).toMatch(/-blue-/);
      } else expect(classes, level).toMatch(RED_OR_AMBER);
    }
    expect(LEVEL_TEXT_CLASS.Critical).toMatch(/red/);
    expect(LEVEL_TEXT_CLASS.Warning).toMatch(/amber/);
  });

  it('says "In violation" for Critical and Warning, "In zone" for Informational, nothing without a violation', () => {
    expect(zoneStateStyle('Critical')).toMatchObject({ state: 'violation', text: 'In violation' });
    expect(zoneStateStyle('Warning')).toMatchObject({ state: 'violation', text: 'In violation' });
    expect(zoneStateStyle('Informational')).toMatchObject({ state: 'zone', text: 'In zone' });
    expect(zoneStateStyle(null)).toBeNull();
  });
});
