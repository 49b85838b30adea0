import { describe, expect, it } from 'vitest';
import { compareTrackedRows, type RankedRow } from './tracked-row-order';

const row = (name: string, fields: Partial<RankedRow>) => ({
  name,
  alertLevel: null,
  violationLevel: null,
  online: true,
  ...fields,
});

describe('compareTrackedRows', () => {
  it('sorts by severity: an Informational zone comes after a Warning and a Critical, never with them', () => {
    const rows = [
      row('offline', { online: false }),
      row('in curfew zone', { violationLevel: 'Informational' }),
      row('quiet', {}),
      row('warning open', { alertLevel: 'Warning' }),
      row('perimeter breach acknowledged', { violationLevel: 'Critical' }),
      row('informational open', { alertLevel: 'Informational' }),
      row('warning breach, info alert', { alertLevel: 'Informational', violationLevel: 'Warning' }),
      row('sos', { alertLevel: 'Critical', online: false }),
    ];
    const names = (list: typeof rows) => [...list].sort(compareTrackedRows).map((entry) => entry.name);
    expect(names(rows)).toEqual([
      'perimeter breach acknowledged',
      'sos',
      'warning open',
      'warning breach, info alert',
      'in curfew zone',
      'informational open',
      'quiet',
      'offline',
    ]);
    // The same order from any starting order (ties stay as given, so compare the levels only).
    const levels = (list: typeof rows) => list.map((entry) => compareTrackedRows(entry, rows[2]!));
    expect(levels([...rows].reverse().sort(compareTrackedRows))).toEqual(levels([...rows].sort(compareTrackedRows)));
  });
});
