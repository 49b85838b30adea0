import { describe, expect, it } from 'vitest';
import { ALERT_STATUSES, ALERT_TYPES, type AlertStatus, type AlertType } from '@prison/shared/constants';
import { bulkPlan, bulkPlanText } from './alert-bulk-plan';

let nextId = 1;
const alert = (alert_type: AlertType, status: AlertStatus = 'New') => ({ id: nextId++, alert_type, status });

describe('bulkPlan', () => {
  it('"Select all on this page" with 5 Criticals and 17 Informational resolves the 17 and says why the 5 are out', () => {
    const criticals = Array.from({ length: 5 }, () => alert('Critical'));
    const routine = Array.from({ length: 17 }, () => alert('Informational'));
    // What select-all ticks: everything but the Criticals.
    const plan = bulkPlan('resolve', [...criticals, ...routine], new Set(routine.map((a) => a.id)));
    expect(plan.ids).toEqual(routine.map((a) => a.id));
    expect(plan.confirmCriticalIds).toEqual([]);
    expect(plan.noteRequired).toBe(false);
    expect(bulkPlanText('resolve', plan)).toBe(
      'Resolve 17 Informational; 5 Critical left out: resolve them one by one',
    );
  });

  it('never takes a Critical that was not ticked, and confirms the ones that were: each level x status x action', () => {
    for (const action of ['acknowledge', 'resolve'] as const)
      for (const level of ALERT_TYPES)
        for (const status of ALERT_STATUSES)
          for (const ticked of [false, true]) {
            const one = alert(level, status);
            const plan = bulkPlan(action, [one], new Set(ticked ? [one.id] : []));
            const moves = status === 'New' || (action === 'resolve' && status === 'Acknowledged');
            const allowed = ticked && moves && !(action === 'resolve' && level !== 'Informational' && status === 'New');
            const what = `${action} ${level} ${status} ticked=${ticked}`;
            expect(plan.ids, what).toEqual(allowed ? [one.id] : []);
            expect(plan.confirmCriticalIds, what).toEqual(allowed && level === 'Critical' ? [one.id] : []);
            // Resolving a Critical or Warning needs a note; acknowledging a Critical too (decision 095).
            const noted = action === 'resolve' ? level !== 'Informational' : level === 'Critical';
            expect(plan.noteRequired, what).toBe(allowed && noted);
            expect(plan.criticalsLeftOut, what).toBe(!ticked && moves && level === 'Critical' ? 1 : 0);
          }
  });

  it('counts each level it changes and what it leaves unacknowledged', () => {
    const page = [
      alert('Critical', 'Acknowledged'),
      alert('Warning'),
      alert('Warning', 'Acknowledged'),
      alert('Informational'),
    ];
    const plan = bulkPlan('resolve', page, new Set(page.map((a) => a.id)));
    expect(bulkPlanText('resolve', plan)).toBe(
      'Resolve 1 Critical, 1 Warning, 1 Informational; 1 not acknowledged left out: acknowledge them first',
    );
    expect(plan.noteRequired).toBe(true);
    expect(bulkPlanText('acknowledge', bulkPlan('acknowledge', page, new Set()))).toBe('Acknowledge nothing');
  });
});
