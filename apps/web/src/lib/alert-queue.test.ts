import { describe, expect, it } from 'vitest';
import type { AlertLevel } from '@prison/shared/constants';
import type { ShowAlertEvent } from '@prison/shared/realtime';
import { dismissRoutine, dropAlerts, enqueueAlert } from './alert-queue';

const alert = (alert_type: AlertLevel, message: string): ShowAlertEvent => ({ index: 'd1', alert_type, message });
const messages = (queue: ShowAlertEvent[]) => queue.map((a) => a.message);
const queued = (...alerts: ShowAlertEvent[]) => alerts.reduce<ShowAlertEvent[]>(enqueueAlert, []);

describe('enqueueAlert', () => {
  it('orders by level, then arrival', () => {
    const queue = queued(alert('informational', 'i1'), alert('warning', 'w1'), alert('informational', 'i2'), alert('warning', 'w2'));
    expect(messages(queue)).toEqual(['w1', 'w2', 'i1', 'i2']);
  });

  it('puts a Critical alert ahead of the Warning on screen and every waiting one, behind earlier Criticals only', () => {
    let queue = queued(alert('warning', 'w1'), alert('informational', 'i1'), alert('warning', 'w2'));
    queue = enqueueAlert(queue, alert('critical', 'c1'));
    expect(messages(queue)).toEqual(['c1', 'w1', 'w2', 'i1']);
    queue = enqueueAlert(queue, alert('critical', 'c2'));
    expect(messages(queue)).toEqual(['c1', 'c2', 'w1', 'w2', 'i1']);
  });

  it('shows a Critical alert at once when nothing is on screen', () => {
    expect(messages(enqueueAlert([], alert('critical', 'c1')))).toEqual(['c1']);
  });
});

describe('dismissRoutine', () => {
  it('keeps every Critical, in order', () => {
    const queue = queued(alert('critical', 'c1'), alert('warning', 'w1'), alert('critical', 'c2'), alert('informational', 'i1'));
    expect(messages(dismissRoutine(queue))).toEqual(['c1', 'c2']);
  });
});

describe('dropAlerts', () => {
  const stored = (alertId: number, message: string): ShowAlertEvent => ({ ...alert('critical', message), alertId });

  it('drops the toasts of alerts moved anywhere, the one on screen included, and keeps the others in order', () => {
    const queue = [stored(1, 'a'), alert('warning', 'no id'), stored(2, 'b'), stored(3, 'c')];
    expect(messages(dropAlerts(queue, [1, 3]))).toEqual(['no id', 'b']);
    expect(dropAlerts(queue, [99])).toBe(queue);
  });
});
