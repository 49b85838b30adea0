// The live map's derived data: the panel's rows join the device list, the live feed and the open alerts; escort
// lines join a prisoner's and an officer's live trackers; the device list's last places feed the grey markers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveMapPrisonerAlerts } from '@prison/shared/alert';
import type { Device } from '@prison/shared/device';
import type { Escort } from '@prison/shared/escort';
import type { TrackedLocation } from '@prison/shared/realtime';
import type { TrackedMarkersLayer } from '../../map/tracked-markers-layer';
import { LivePositionFeed } from './live-position-feed';
import { escortLinks, lastKnownPlaces, trackedRows, worstLevels } from './tracked-rows';

let frames: (() => void)[] = [];
beforeEach(() => {
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
});
afterEach(() => vi.unstubAllGlobals());

const layer = { upsert() {}, removeMarker() {}, setLevel() {} } as unknown as TrackedMarkersLayer;

function device(id: string, fields: Partial<Device> = {}): Device {
  return {
    id,
    name: `Tracker ${id}`,
    prisoner_id: null,
    prisoner_name: null,
    last_seen_at: null,
    last_battery: null,
    online: false,
    latitude: null,
    longitude: null,
    ...fields,
  };
}

function location(id: string, fields: Partial<TrackedLocation> = {}): TrackedLocation {
  return { id, trackingId: id, prisonerId: null, name: `Wearer ${id}`, latitude: 1, longitude: 2, ...fields };
}

function alerts(prisonerId: number, fields: Partial<LiveMapPrisonerAlerts>): LiveMapPrisonerAlerts {
  return {
    prisoner_id: prisonerId,
    in_violation: false,
    violation_level: null,
    worst_level: null,
    open_count: 0,
    open: [],
    ...fields,
  };
}

/** A feed holding these live fixes, applied as the page's animation frame would. */
function feedWith(live: TrackedLocation[]): LivePositionFeed {
  const feed = new LivePositionFeed(layer, () => undefined);
  feed.changes({ changed: Object.fromEntries(live.map((entry) => [entry.trackingId, entry])), gone: [] });
  while (frames.length) frames.shift()!();
  return feed;
}

describe('live map rows', () => {
  it('lists every assigned tracker and the live prisoners the device list does not know yet, never staff', () => {
    const at = new Date().toISOString();
    const live = [
      location('d1', { prisonerId: 7, name: 'Ann Lee', latitude: 51.5, longitude: -0.1, at, cellId: 'B-2' }),
      location('new', { prisonerId: 9, name: 'Bo Ray', at }),
      location('officer', { staffId: 3, name: 'Officer Kay', at }),
    ];
    const feed = feedWith(live);
    const devices = [
      device('d1', { prisoner_id: 7, prisoner_name: 'Ann Lee', last_battery: 80 }),
      device('d2', {
        prisoner_id: 8,
        prisoner_name: 'Cy Moe',
        latitude: 51.4,
        longitude: -0.2,
        last_seen_at: '2026-01-01T00:00:00.000Z',
      }),
    ];
    const rows = trackedRows(
      devices,
      new Map(live.map((entry) => [entry.trackingId, entry])),
      feed,
      new Map([[7, alerts(7, { worst_level: 'Critical', violation_level: 'Warning' })]]),
    );

    expect(rows.map((row) => row.trackingId)).toEqual(['d1', 'd2', 'new']);
    expect(rows[0]).toMatchObject({
      name: 'Ann Lee',
      cellId: 'B-2',
      online: true,
      alertLevel: 'Critical',
      violationLevel: 'Warning',
      level: 'critical',
      position: [51.5, -0.1],
      lastFixAt: at,
      battery: 80,
    });
    // Not live: the device list's last place and time, offline.
    expect(rows[1]).toMatchObject({
      name: 'Cy Moe',
      online: false,
      level: 'offline',
      position: [51.4, -0.2],
      lastFixAt: '2026-01-01T00:00:00.000Z',
    });
    expect(rows[2]).toMatchObject({ name: 'Bo Ray', prisonerId: 9, online: true, alertLevel: null, battery: null });
  });

  it('takes the worst open level of each prisoner that has one', () => {
    const worst = worstLevels(
      new Map([
        [1, alerts(1, { worst_level: 'Warning' })],
        [2, alerts(2, { violation_level: 'Critical' })],
      ]),
    );
    expect([...worst]).toEqual([[1, 'Warning']]);
  });

  it("keeps the device list's trackers that have a last position as the feed's last known places", () => {
    const places = lastKnownPlaces([
      device('a', {
        prisoner_id: 4,
        prisoner_name: 'Di Fox',
        prisoner_cell_id: 'A-1',
        latitude: 3,
        longitude: 4,
        last_seen_at: '2026-02-02T00:00:00.000Z',
      }),
      device('b'),
      device('c', { latitude: 5, longitude: 6 }),
    ]);
    expect([...places.keys()]).toEqual(['a', 'c']);
    expect(places.get('a')).toEqual({
      id: 'a',
      trackingId: 'a',
      prisonerId: 4,
      name: 'Di Fox',
      cellId: 'A-1',
      latitude: 3,
      longitude: 4,
      at: '2026-02-02T00:00:00.000Z',
    });
    expect(places.get('c')).toMatchObject({ name: 'Tracker c', prisonerId: null });
    expect(places.get('c')).not.toHaveProperty('at');
  });

  it('links an escort only while both its prisoner and its officer are on the map', () => {
    const escort = (id: number, prisonerId: number, staffId: number) =>
      ({ id, prisoner: { prisoner_id: prisonerId }, staff: { staff_id: staffId } }) as Escort;
    const live = new Map([
      ['p1', location('p1', { prisonerId: 1 })],
      ['p2', location('p2', { prisonerId: 2 })],
      ['s1', location('s1', { staffId: 1 })],
    ]);
    expect(escortLinks([escort(1, 1, 1), escort(2, 2, 5), escort(3, 9, 1)], live)).toEqual([['p1', 's1']]);
    expect(escortLinks([], live)).toEqual([]);
  });
});
