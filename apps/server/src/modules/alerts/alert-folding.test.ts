// One problem, one alert, through the real ingest path on both engines: repeats of one rule for one person fold into
// the open alert (repeat_count, last_seen_at) until it is resolved; a crossing and back within the zone's dwell raises
// nothing; an Informational zone entry is an event, out of the open queue and the counts; a tracker offline for less
// than the grace period and back raises nothing.
import { and, eq } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import type { AlertPage, AlertRecord, LiveMapAlerts, Overview } from '@prison/shared';
import { alerts } from '../../db/schema';
import { describeEachEngine, describeOnPglite } from '../../../test/test-db';
import { useTestApp, type TestContext } from '../../../test/test-app';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';

const CENTRE = { lat: 10.5, lng: 20.5 };
/** A 100 m zone: its centre, a point just inside the edge and one just outside it (about 89 m and 117 m out). */
const INSIDE = { latitude: CENTRE.lat, longitude: CENTRE.lng };
const NEAR_INSIDE = { latitude: CENTRE.lat + 0.0008, longitude: CENTRE.lng };
const NEAR_OUTSIDE = { latitude: CENTRE.lat + 0.00105, longitude: CENTRE.lng };
const OUTSIDE = { latitude: CENTRE.lat + 0.002, longitude: CENTRE.lng };

let zones = 0;
async function addZone(ctx: TestContext, body: Record<string, unknown>): Promise<string> {
  const geofenceId = `fold-${Date.now().toString(36)}-${++zones}`;
  const res = await ctx.api('POST', '/geofence/add', {
    geofence_id: geofenceId,
    shape: 'Circle',
    name: `Zone ${zones}`,
    radius: 100,
    center_lat: CENTRE.lat,
    center_lng: CENTRE.lng,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return geofenceId;
}

async function wornTracker(ctx: TestContext) {
  const prisoner = await addPrisoner(ctx);
  return { prisoner, device: await addDevice(ctx, { prisoner_id: prisoner.id }) };
}

type Place = typeof INSIDE;
/** One gateway request: its fixes are one batch. */
async function send(ctx: TestContext, device: { id: string; secret: string }, fixes: [Place, number][]) {
  const positions = fixes.map(([place, at]) => ({ device_id: device.id, secret: device.secret, ...place, timestamp: new Date(at).toISOString() }));
  const res = await ctx.api('POST', '/ingest/positions', { positions });
  expect(res.statusCode, res.body).toBe(200);
}

const alertsOf = (ctx: TestContext, deviceId: string) => ctx.database.db.select().from(alerts).where(eq(alerts.deviceId, deviceId)).orderBy(alerts.id);

describeEachEngine('one problem, one alert', (engine) => {
  const ctx = useTestApp(engine);

  it('five breaches of one Negative zone by one prisoner within ten minutes leave one open alert with repeat_count 5', async () => {
    const zone = await addZone(ctx(), { type: 'Negative', alert_type: 'Critical' });
    const { prisoner, device } = await wornTracker(ctx());
    const start = Date.now() - 12 * 60_000;
    await send(ctx(), device, [[INSIDE, start]]);
    const breaches: number[] = [];
    for (let i = 0; i < 5; i++) {
      const out = start + (i * 2 + 1) * 60_000;
      // Out for longer than the zone's dwell (10 s by default), as one batch (one statement), then back in another.
      await send(ctx(), device, [
        [OUTSIDE, out],
        [OUTSIDE, out + 15_000],
      ]);
      await send(ctx(), device, [[INSIDE, out + 60_000]]);
      breaches.push(out + 10_000);
    }
    const stored = await alertsOf(ctx(), device.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ kind: 'geofence', geofenceId: zone, status: 'New', repeatCount: 4 });
    const page = (await ctx().api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}&status=New`)).json<AlertPage>();
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ repeat_count: 5, last_seen_at: new Date(breaches[4]!).toISOString(), needs_action: true });
    // The fifth breach ended: the alert says so; it stays open work until someone resolves it.
    expect(page.data[0]!.ended_at).toBe(new Date(start + 10 * 60_000).toISOString());

    // Acknowledged, a breach still folds in; resolved, the next breach is a new alert.
    const acknowledged = await ctx().api('POST', `/alert/${stored[0]!.id}/acknowledge`, { note: 'Officer on the way' });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    const resolved = await ctx().api('POST', `/alert/${stored[0]!.id}/resolve`, { note: 'Walked back with an officer' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    await send(ctx(), device, [
      [OUTSIDE, start + 11 * 60_000],
      [OUTSIDE, start + 11 * 60_000 + 15_000],
    ]);
    const after = await alertsOf(ctx(), device.id);
    expect(after.map((a) => [a.status, a.repeatCount])).toEqual([
      ['Resolved', 4],
      ['New', 0],
    ]);
  });

  it('a tracker crossing a boundary and back within the dwell raises nothing', async () => {
    const zone = await addZone(ctx(), { type: 'Negative', alert_type: 'Critical' });
    const created = (await ctx().api('GET', '/geofence/all')).json<{ geofence_id: string; dwell_seconds: number }[]>();
    expect(created.find((g) => g.geofence_id === zone)?.dwell_seconds).toBe(10);
    const { device } = await wornTracker(ctx());
    const now = Date.now();
    await send(ctx(), device, [[NEAR_INSIDE, now - 30_000]]);
    // Out for 5 s and back, in two requests: the tracker was outside for less than the dwell.
    await send(ctx(), device, [[NEAR_OUTSIDE, now - 8_000]]);
    await send(ctx(), device, [[NEAR_INSIDE, now - 3_000]]);
    // The dwell timers run long after: still nothing.
    await ctx().app.tracking.checkSilence(new Date(now + 30_000));
    expect(await alertsOf(ctx(), device.id)).toEqual([]);
  });

  it('an Informational entry is an event: stored, but not in the open counts, the open queue or the live map count', async () => {
    const zone = await addZone(ctx(), { type: 'Positive', alert_type: 'Informational', dwell_seconds: 0 });
    const { prisoner, device } = await wornTracker(ctx());
    const before = (await ctx().api('GET', '/overview')).json<Overview>();
    const start = Date.now() - 5 * 60_000;
    await send(ctx(), device, [[OUTSIDE, start]]);
    await send(ctx(), device, [[INSIDE, start + 60_000]]);
    const [entry] = await ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, device.id), eq(alerts.geofenceId, zone)));
    expect(entry).toMatchObject({ alertType: 'Informational', status: 'New', needsAction: false });

    const after = (await ctx().api('GET', '/overview')).json<Overview>();
    expect(after.open_alerts).toEqual(before.open_alerts);
    const open = (await ctx().api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}&status=New&needs_action=true&limit=10`)).json<AlertPage>();
    expect(open.data).toEqual([]);
    expect(open.counts.Informational).toBe(0);
    const events = (await ctx().api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}&needs_action=false&limit=10`)).json<AlertPage>();
    expect(events.data.map((a: AlertRecord) => a.id)).toEqual([entry!.id]);
    const liveMap = (await ctx().api('GET', '/alert/live-map')).json<LiveMapAlerts>();
    expect(liveMap.data.find((row) => row.prisoner_id === prisoner.id)?.open_count ?? 0).toBe(0);
  });
});

describeOnPglite('the offline grace period', () => {
  const ctx = useTestApp('pglite', { DEVICE_OFFLINE_SECONDS: 60, OFFLINE_GRACE_SECONDS: 120 });

  it('a tracker offline for less than the grace period and back raises nothing; longer raises one Warning', async () => {
    const { device } = await wornTracker(ctx());
    const { device: lost } = await wornTracker(ctx());
    const now = Date.now();
    await send(ctx(), device, [[INSIDE, now - 1_000]]);
    await send(ctx(), lost, [[INSIDE, now - 1_000]]);
    const tracking = ctx().app.tracking;
    // Offline after 60 s: no alert yet, within the grace.
    await tracking.checkSilence(new Date(now + 90_000));
    expect((await ctx().api('GET', `/devices/${device.id}`)).json<{ online: boolean }>().online).toBe(false);
    expect(await alertsOf(ctx(), device.id)).toEqual([]);
    expect(await alertsOf(ctx(), lost.id)).toEqual([]);
    // One reports again within the grace (heard by the server 100 s on); the other stays silent past it.
    vi.useFakeTimers({ toFake: ['Date'], now: now + 100_000 });
    try {
      await send(ctx(), device, [[INSIDE, now + 99_000]]);
    } finally {
      vi.useRealTimers();
    }
    await tracking.checkSilence(new Date(now + 200_000));
    expect(await alertsOf(ctx(), device.id)).toEqual([]);
    expect((await alertsOf(ctx(), lost.id)).map((a) => [a.kind, a.alertType])).toEqual([['offline', 'Warning']]);
  });
});

describeOnPglite('zone entries switched on as work (ZONE_ENTRIES_NEED_ACTION)', () => {
  const ctx = useTestApp('pglite', { ZONE_ENTRIES_NEED_ACTION: true });

  it('an Informational entry needs action: it is in the open queue and the counts', async () => {
    const zone = await addZone(ctx(), { type: 'Positive', alert_type: 'Informational', dwell_seconds: 0 });
    const { prisoner, device } = await wornTracker(ctx());
    const before = (await ctx().api('GET', '/overview')).json<Overview>();
    const start = Date.now() - 5 * 60_000;
    await send(ctx(), device, [[OUTSIDE, start]]);
    await send(ctx(), device, [[INSIDE, start + 60_000]]);
    const [entry] = await ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, device.id), eq(alerts.geofenceId, zone)));
    expect(entry).toMatchObject({ alertType: 'Informational', status: 'New', needsAction: true });
    expect((await ctx().api('GET', '/overview')).json<Overview>().open_alerts).not.toEqual(before.open_alerts);
    const open = (await ctx().api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}&status=New&needs_action=true&limit=10`)).json<AlertPage>();
    expect(open.data.map((a: AlertRecord) => a.id)).toEqual([entry!.id]);
  });
});
