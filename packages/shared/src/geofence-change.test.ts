import { describe, expect, it } from 'vitest';
import { compareGeofences, scheduleCovers, scopeCovers, weakensAlarm, type GeofenceRules } from './geofence-change';

const perimeter: GeofenceRules = {
  name: 'Perimeter',
  type: 'Negative',
  alert_type: 'Critical',
  dwell_seconds: 0,
  buffer_meters: 0,
  shape: 'Circle',
  radius: 500,
  center_lat: 51.5,
  center_lng: -0.12,
  coordinates: null,
  applies_to: null,
  schedule: null,
};

describe('compareGeofences', () => {
  it('names each change and whether it weakens the alarm', () => {
    const weakened = compareGeofences(perimeter, { ...perimeter, name: 'Outer', alert_type: 'Informational' });
    expect(weakened).toEqual([
      { field: 'name', text: 'Name: Perimeter → Outer', weakens: false },
      { field: 'alert_type', text: 'Alert level: Critical → Informational', weakens: true },
    ]);
    expect(weakensAlarm(weakened)).toBe(true);
    expect(weakensAlarm(compareGeofences({ ...perimeter, alert_type: 'Warning' }, perimeter))).toBe(false);
    expect(compareGeofences(perimeter, { ...perimeter, coordinates: [] })).toEqual([]);
  });

  it('scope: everyone -> block -> chosen prisoners narrows; naming more widens', () => {
    expect(scopeCovers({ blocks: ['A'] }, null)).toBe(false);
    expect(scopeCovers({ prisoner_ids: [1] }, { blocks: ['A'] })).toBe(false);
    expect(scopeCovers({ blocks: ['A'], prisoner_ids: [1] }, { blocks: ['A'] })).toBe(true);
    expect(scopeCovers(null, { prisoner_ids: [1] })).toBe(true);
    expect(scopeCovers({ prisoner_ids: [1] }, { prisoner_ids: [1, 2] })).toBe(false);
  });

  it('schedule: covers minute by minute, across midnight and Sunday into Monday', () => {
    const night = [{ days: [7], start: '19:00', end: '07:00' }];
    expect(scheduleCovers(null, night)).toBe(true);
    expect(scheduleCovers(night, null)).toBe(false);
    expect(scheduleCovers([{ days: [7], start: '18:00', end: '24:00' }, { days: [1], start: '00:00', end: '08:00' }], night)).toBe(true);
    expect(scheduleCovers([{ days: [7], start: '19:00', end: '24:00' }], night)).toBe(false);
  });
});
