// The pure rules of the counts: scheduled times read in the prison's zone (daylight saving included), and where a
// counted prisoner is (his block, another block, the smallest geofence, offline, untracked), and what the officers'
// submits make of a count (clear, to find, tracker mismatches, each block's roll).
import { describe, expect, it } from 'vitest';
import { landingOf, type CountAccount, type CountLine, type CountSubmission, type StoredGeofence } from '@prison/shared';
import { countSlotsAround } from './count-schedule';
import { countLineOf, type CountedPrisoner } from './count-lines';
import { agrees, missingCount, rollOf, toFind, trackerMismatches } from './count-outcome';

describe('scheduled count times', () => {
  it('are local times of yesterday and today in TZ, following daylight saving', () => {
    const summer = countSlotsAround(new Date('2026-07-01T12:00:00Z'), ['08:00', '21:00'], 'Europe/London');
    expect(summer.map((slot) => slot.at.toISOString())).toEqual([
      '2026-06-30T07:00:00.000Z',
      '2026-06-30T20:00:00.000Z',
      '2026-07-01T07:00:00.000Z',
      '2026-07-01T20:00:00.000Z',
    ]);
    const winter = countSlotsAround(new Date('2026-01-15T12:00:00Z'), ['08:00'], 'Europe/London');
    expect(winter.map((slot) => slot.at.toISOString())).toEqual(['2026-01-14T08:00:00.000Z', '2026-01-15T08:00:00.000Z']);
    // Just after midnight local time in Tokyo (UTC+9), "today" is the local day already.
    const tokyo = countSlotsAround(new Date('2026-03-01T15:30:00Z'), ['08:00'], 'Asia/Tokyo');
    expect(tokyo.map((slot) => slot.at.toISOString())).toEqual(['2026-02-28T23:00:00.000Z', '2026-03-01T23:00:00.000Z']);
  });
});

describe('count lines', () => {
  const now = new Date('2026-05-01T10:00:00Z');
  const square = (lat: number, lng: number): [number, number][] => [
    [lat, lng],
    [lat, lng + 0.001],
    [lat + 0.001, lng + 0.001],
    [lat + 0.001, lng],
  ];
  const geofence = (name: string, fields: Partial<StoredGeofence>): StoredGeofence =>
    ({ geofence_id: name, name, type: 'Positive', alert_type: 'Informational', dwell_seconds: 0, buffer_meters: 0, radius: null, center_lat: null, center_lng: null, coordinates: null, ...fields }) as StoredGeofence;
  const places = {
    areas: new Map([
      ['A', square(51, 0)],
      ['B', square(51, 0.002)],
    ]),
    geofences: [
      // The perimeter: a big square around everything.
      geofence('Perimeter', {
        shape: 'Polygon',
        coordinates: [
          [50.98, -0.02],
          [50.98, 0.02],
          [51.02, 0.02],
          [51.02, -0.02],
        ],
      }),
      geofence('Yard', { shape: 'Circle', radius: 30, center_lat: 50.995, center_lng: 0.0005 }),
    ],
    offlineMs: 120_000,
    now,
  };
  const prisoner = (fields: Partial<CountedPrisoner>): CountedPrisoner => ({
    prisonerId: 1,
    name: 'Ada Lovelace',
    prisonNumber: 'A0001',
    photoDigest: null,
    flags: [],
    block: 'A',
    cellId: 'A-1',
    deviceId: 'tag-1',
    lastFixAt: new Date(now.getTime() - 10_000),
    latitude: 51.0005,
    longitude: 0.0005,
    ...fields,
  });

  it('in his block, in another block, in the smallest geofence holding him, or outside everything', () => {
    expect(countLineOf(prisoner({}), places)).toMatchObject({ state: 'in_block', where: 'Block A' });
    expect(countLineOf(prisoner({ longitude: 0.0025 }), places)).toMatchObject({ state: 'elsewhere', where: 'Block B' });
    expect(countLineOf(prisoner({ latitude: 50.995 }), places)).toMatchObject({ state: 'elsewhere', where: 'Yard' });
    expect(countLineOf(prisoner({ latitude: 51.01 }), places)).toMatchObject({ state: 'elsewhere', where: 'Perimeter' });
    expect(countLineOf(prisoner({ latitude: 52 }), places)).toMatchObject({ where: 'outside every block and geofence' });
  });

  it('offline when the last fix is older than the threshold, untracked without a tracker or a fix', () => {
    expect(countLineOf(prisoner({ lastFixAt: new Date(now.getTime() - 121_000) }), places)).toMatchObject({ state: 'offline', where: null });
    expect(countLineOf(prisoner({ deviceId: null }), places)).toMatchObject({ state: 'untracked' });
    expect(countLineOf(prisoner({ lastFixAt: null, latitude: null, longitude: null }), places)).toMatchObject({ state: 'untracked' });
    // A block with no area: nobody can be proven in it.
    expect(countLineOf(prisoner({ block: 'C' }), places)).toMatchObject({ state: 'elsewhere', where: 'Block A' });
  });
});

describe('what a count makes of its submits', () => {
  const line = (id: number, block: string, cell: string, state: CountLine['state'] = 'in_block'): CountLine => ({
    prisoner_id: id,
    name: `P${id}`,
    block,
    cell_id: cell,
    device_id: state === 'untracked' ? null : `d${id}`,
    state,
    where: state === 'elsewhere' ? 'Yard' : null,
    last_fix_at: null,
  });
  const lines = [line(1, 'A', 'A-101'), line(2, 'A', 'A-201', 'elsewhere'), line(3, 'B', 'B-101', 'untracked')];
  const submit = (seen: number[] | null, counted: number): CountSubmission => ({
    at: '2026-01-01T08:00:00Z',
    by: 'officer',
    seen,
    counted,
    state: agrees(lines, { seen, counted }) ? 'clear' : 'discrepancy',
    note: null,
  });

  it('agrees when everyone is seen or the typed number is the roll, whatever the trackers say', () => {
    expect(agrees(lines, { seen: [3, 2, 1], counted: 3 })).toBe(true);
    expect(agrees(lines, { seen: [1, 3], counted: 2 })).toBe(false);
    expect(agrees(lines, { seen: null, counted: 3 })).toBe(true);
    expect(agrees(lines, { seen: null, counted: 4 })).toBe(false);
    expect(trackerMismatches(lines, submit([1, 2, 3], 3)).map((l) => l.prisoner_id)).toEqual([2]);
    expect(trackerMismatches(lines, submit(null, 2))).toEqual([]);
  });

  it('names who is to find, counts a typed shortfall, and gives each block its roll', () => {
    const named = { lines, submissions: [submit([2], 1)], accounts: [] };
    expect(toFind(named).map((l) => l.prisoner_id)).toEqual([1, 3]);
    expect(missingCount(named)).toBe(2);
    expect(rollOf(named, ['A', 'B'])).toEqual([
      { block: 'A', expected: 2, seen: 1, out: 0, to_find: 1 },
      { block: 'B', expected: 1, seen: 0, out: 0, to_find: 1 },
    ]);
    const account: CountAccount = { prisoner_id: 3, name: 'P3', block: 'B', reason: 'court', note: null, by: 'o', at: '' };
    expect(rollOf({ ...named, accounts: [account] }, ['A', 'B'])[1]).toEqual({ block: 'B', expected: 1, seen: 0, out: 1, to_find: 0 });
    const typed = { lines, submissions: [submit(null, 1)], accounts: [] };
    expect([toFind(typed), missingCount(typed)]).toEqual([[], 2]);
    expect(rollOf(typed, ['A', 'B']).map((row) => row.seen)).toEqual([null, null]);
    expect(missingCount({ lines, submissions: [submit(null, 5)], accounts: [] })).toBe(0);
  });

  it('reads the landing off a cell number', () => {
    expect([landingOf('A-101'), landingOf('A-204'), landingOf('B-1203'), landingOf('Count A-1'), landingOf('A1-ground')]).toEqual([
      1, 2, 12, null, null,
    ]);
  });
});
