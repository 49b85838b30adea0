import { describe, expect, it } from 'vitest';
import type { AlertType, ShowAlertEvent } from '@prison/shared';
import { dropAlerts, enqueueAlert } from './alert-queue';

const alert = (alert_type: AlertType, message: string): ShowAlertEvent => ({ index: 'd1', alert_type, message });
const messages = (queue: ShowAlertEvent[]) => queue.map((a) => a.message);

describe('enqueueAlert', () => {
  it('keeps arrival order for Warning and Informational alerts', () => {
    let queue: ShowAlertEvent[] = [];
    for (const [type, text] of [['Informational', 'i1'], ['Warning', 'w1'], ['Informational', 'i2']] as const)
      queue = enqueueAlert(queue, alert(type, text));
    expect(messages(queue)).toEqual(['i1', 'w1', 'i2']);
  });

  it('puts a Critical alert next, behind the toast on screen and earlier Criticals only', () => {
    let queue = [alert('Informational', 'i1'), alert('Informational', 'i2'), alert('Warning', 'w1')];
    queue = enqueueAlert(queue, alert('Critical', 'c1'));
    expect(messages(queue)).toEqual(['i1', 'c1', 'i2', 'w1']);
    queue = enqueueAlert(queue, alert('Critical', 'c2'));
    expect(messages(queue)).toEqual(['i1', 'c1', 'c2', 'i2', 'w1']);
  });

  it('shows a Critical alert at once when nothing is on screen', () => {
    expect(messages(enqueueAlert([], alert('Critical', 'c1')))).toEqual(['c1']);
  });
});

describe('dropAlerts', () => {
  const stored = (alertId: number, message: string): ShowAlertEvent => ({ ...alert('Critical', message), alertId });

  it('drops the toasts of alerts moved anywhere, the one on screen included, and keeps the others in order', () => {
    const queue = [stored(1, 'a'), alert('Warning', 'no id'), stored(2, 'b'), stored(3, 'c')];
    expect(messages(dropAlerts(queue, [1, 3]))).toEqual(['no id', 'b']);
    expect(dropAlerts(queue, [99])).toBe(queue);
  });
});
