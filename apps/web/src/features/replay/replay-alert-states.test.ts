// The replay's alert state at a moment: open from the alert's time until acknowledged or resolved, worst level wins.
import { describe, expect, it } from 'vitest';
import type { ReplayAlert, ReplayTrack } from '@prison/shared/replay';
import { alertSteps, alertStepsByTrack, worstOpenAt } from './replay-alert-states';

const alert = (t: number, closed_t: number | null, alert_type: ReplayAlert['alert_type'], who: Partial<ReplayAlert> = {}): ReplayAlert => ({
  id: t,
  t,
  closed_t,
  alert_type,
  kind: 'manual',
  details: '',
  prisoner_id: 1,
  device_id: null,
  ...who,
});

describe('replay alert state at a moment', () => {
  it('is nothing before the first alert, then the worst open level, until each is acknowledged', () => {
    // Informational from 1 s (never closed), Critical from 5 s to 20 s, Warning from 10 s to 30 s.
    const steps = alertSteps([alert(1000, null, 'Informational'), alert(5000, 20_000, 'Critical'), alert(10_000, 30_000, 'Warning')]);
    expect(worstOpenAt(steps, 0)).toBeNull();
    expect(worstOpenAt(steps, 999)).toBeNull();
    expect(worstOpenAt(steps, 1000)).toBe('Informational');
    expect(worstOpenAt(steps, 5000)).toBe('Critical');
    expect(worstOpenAt(steps, 12_000)).toBe('Critical');
    expect(worstOpenAt(steps, 20_000)).toBe('Warning');
    expect(worstOpenAt(steps, 30_000)).toBe('Informational');
    expect(worstOpenAt(steps, 1e9)).toBe('Informational');
  });

  it('reads a Critical as open while an Informational follows 4 s later, and nothing once all are closed', () => {
    const steps = alertSteps([alert(4000, 6000, 'Informational'), alert(0, 10_000, 'Critical')]);
    expect(worstOpenAt(steps, 4500)).toBe('Critical');
    expect(worstOpenAt(steps, 10_000)).toBeNull();
  });

  it('keeps the steps short: no step that does not change the level, none for alerts closed at once', () => {
    const steps = alertSteps([alert(0, null, 'Warning'), alert(1000, 2000, 'Warning'), alert(3000, 3000, 'Critical')]);
    expect(steps).toEqual({ times: [0], levels: ['Warning'] });
  });

  it("gives a prisoner's alerts to each of his trackers and a staff tracker's to that tracker only", () => {
    const track = (device_id: string, prisoner_id: number | null): ReplayTrack => ({
      device_id,
      wearer: prisoner_id === null ? 'staff' : 'prisoner',
      prisoner_id,
      staff_id: null,
      name: device_id,
      block: null,
      prison_number: null,
      cell_id: null,
      points: [],
    });
    const steps = alertStepsByTrack(
      [track('a', 1), track('b', 1), track('s', null), track('c', 2)],
      [alert(0, null, 'Critical'), alert(0, null, 'Warning', { prisoner_id: null, device_id: 's' })],
    );
    expect(worstOpenAt(steps.get('a')!, 5)).toBe('Critical');
    expect(worstOpenAt(steps.get('b')!, 5)).toBe('Critical');
    expect(worstOpenAt(steps.get('s')!, 5)).toBe('Warning');
    expect(steps.has('c')).toBe(false);
  });
});
