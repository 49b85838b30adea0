// The simulator and the demo report through the real device protocols of a listening server.
import { expect, it } from 'vitest';
import { count, eq, like } from 'drizzle-orm';
import { devices, geofences, positions, prisoners, readers } from '../db/schema';
import { startDemoTracking } from '../seed/demo-tracking';
import { addDevice, useListeningApp } from '../tracking/tracking-test-kit';
import { describeEachEngine } from '../../test/test-db';
import { polygonContains } from '@prison/shared';
import { PrisonSite } from './site';
import { osmandTransport, Simulator, socketTransport } from './simulator';

const waitFor = async (check: () => Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
};

describeEachEngine('simulator', (engine) => {
  const ctx = useListeningApp(engine);
  const site = new PrisonSite(51.5007, -0.1246);
  const fixesOf = async (id: string) =>
    (await ctx().database.db.select({ n: count() }).from(positions).where(eq(positions.deviceId, id)))[0]!.n;

  it('the site lays out the demo geofences: a Negative perimeter, two restricted zones, a yard', () => {
    const [perimeter] = site.geofences();
    expect(perimeter).toMatchObject({ name: 'Perimeter', type: 'Negative', alert_type: 'Critical', shape: 'Polygon' });
    expect(site.geofences().map((g) => [g.name, g.type, g.alert_type, g.shape])).toEqual([
      ['Perimeter', 'Negative', 'Critical', 'Polygon'],
      ['Workshop', 'Positive', 'Warning', 'Rectangle'],
      ['Armoury', 'Positive', 'Warning', 'Circle'],
      ['Exercise Yard', 'Positive', 'Informational', 'Circle'],
    ]);
    // With a block A: its night curfew; the Workshop is allowed on weekdays 09:00-17:00 only.
    const curfew = site.geofences(['A', 'B']).at(-1);
    expect(curfew).toMatchObject({ name: 'Block A curfew', type: 'Negative', applies_to: { blocks: ['A'] }, schedule: [{ start: '19:00', end: '07:00' }] });
    expect(site.geofences()[1]!.schedule).toEqual([
      { days: [1, 2, 3, 4, 5], start: '17:00', end: '09:00' },
      { days: [6, 7], start: '09:00', end: '09:00' },
    ]);
  });

  it('the site gives each demo block an area inside the wall, block A its curfew building (issue 24)', () => {
    const areas = site.blockAreas(['C', 'A', 'B']);
    expect(areas.map((area) => area.block)).toEqual(['A', 'B', 'C']);
    const curfew = site.geofences(['A']).at(-1)!;
    expect(areas[0]!.points.map(({ lat, lng }) => [lat, lng])).toEqual(curfew.shape === 'Rectangle' ? curfew.coordinates : []);
    const wall = site.perimeter.map((p) => site.toLatLng(p));
    for (const area of areas) for (const { lat, lng } of area.points) expect(polygonContains(wall, lat, lng), area.block).toBe(true);
  });

  it('walks devices through OsmAnd HTTP and through Socket.IO', async () => {
    const a = await addDevice(ctx());
    const b = await addDevice(ctx());
    const overHttp = new Simulator({ site, devices: [{ id: a.id }], transport: osmandTransport(ctx().osmandUrl), rateHz: 10 });
    const overSocket = new Simulator({ site, devices: [b], transport: socketTransport(ctx().baseUrl, [b]), rateHz: 10 });
    overHttp.start();
    overSocket.start();
    try {
      await waitFor(async () => (await fixesOf(a.id)) >= 3 && (await fixesOf(b.id)) >= 3);
    } finally {
      await overHttp.stop();
      await overSocket.stop();
    }
    expect(overHttp.stats.failed + overSocket.stats.failed).toBe(0);
  });

  it('the demo seeds the prison geofences, gives most incarcerated prisoners a tracker and moves them', async () => {
    const db = ctx().database.db;
    await db.delete(geofences);
    await db.insert(prisoners).values(
      Array.from({ length: 6 }, (_, i) => ({ firstName: 'Demo', lastName: `Inmate ${i}`, status: i < 5 ? 'Incarcerated' : 'Released' })),
    );
    const demo = await startDemoTracking(ctx().app);
    try {
      const names = (await db.select({ name: geofences.name }).from(geofences)).map((g) => g.name).sort();
      expect(names).toEqual(['Armoury', 'Exercise Yard', 'Perimeter', 'Workshop']);
      const demoDevices = await db.select({ id: devices.id }).from(devices).where(like(devices.id, 'demo-%'));
      expect(demoDevices.length).toBeGreaterThanOrEqual(4); // most of the 5 incarcerated, of those without one
      await waitFor(async () => (await fixesOf(demoDevices[0]!.id)) >= 1);
      // Readers along the blocks' corridors, and some prisoners tracked by tag indoors: their fixes
      // are at a reader's point with its radius as the accuracy, through the HTTP sightings route.
      const corridorReaders = await db.select().from(readers).where(like(readers.id, 'demo-reader-%'));
      expect(corridorReaders.map((r) => r.blockId).sort()).toEqual(['A', 'A', 'A', 'A', 'A', 'B', 'B', 'B', 'B']);
      const atReader = async () => {
        const rows = await db.select({ lat: positions.latitude, lng: positions.longitude }).from(positions).where(eq(positions.accuracy, 10));
        return rows.some((row) => corridorReaders.some((r) => r.latitude === row.lat && r.longitude === row.lng));
      };
      await waitFor(atReader, 15_000);
      // Those trackers are registered as tags (decision 092): a reader's sighting of a phone would be refused.
      const placedAtReaders = await db
        .selectDistinct({ kind: devices.kind })
        .from(positions)
        .innerJoin(devices, eq(devices.id, positions.deviceId))
        .where(eq(positions.accuracy, 10));
      expect(placedAtReaders).toEqual([{ kind: 'tag' }]);
      expect((await db.select({ kind: devices.kind }).from(devices).where(like(devices.id, 'demo-%'))).some((d) => d.kind === 'phone')).toBe(true);
    } finally {
      await demo.stop();
    }
    // A demo database from before devices had a kind (all phones): the next start makes two of them its tags again.
    const demoKinds = async () => (await db.select({ kind: devices.kind }).from(devices).where(like(devices.id, 'demo-%'))).map((d) => d.kind).sort();
    await db.update(devices).set({ kind: 'phone' }).where(like(devices.id, 'demo-%'));
    const again = await startDemoTracking(ctx().app);
    await again.stop();
    expect(await demoKinds()).toEqual(['phone', 'phone', 'tag', 'tag']);
  });
});
