// The alerting batch in one statement (decision 080): a batch whose only news are alerts of its own and geofence state
// changes is stored by the batch's one statement, without a transaction, and each state row points at the alert of
// its own device; a batch with a pair changing twice still takes the transaction. On both engines.
import { and, eq, inArray } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { alerts, geofenceStates, positions } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { addDevice, addPrisoner } from '../tracking-test-kit';

const CENTRE = { lat: 10.5, lng: 20.5 };
/** Inside the 100 m zone, and about 220 m north of its centre: a walk, not a jump the fix checks would refuse. */
const INSIDE = { latitude: CENTRE.lat, longitude: CENTRE.lng };
const OUTSIDE = { latitude: CENTRE.lat + 0.002, longitude: CENTRE.lng };

describeEachEngine('a batch that raises alerts', (engine) => {
  const ctx = useTestApp(engine);

  it('stores fixes, alerts and geofence states in one statement, each state row pointing at its own alert', async () => {
    const zone = `one-statement-${Date.now().toString(36)}`;
    const added = await ctx().api('POST', '/geofence/add', {
      geofence_id: zone,
      shape: 'Circle',
      name: 'Yard wall',
      type: 'Positive',
      alert_type: 'Warning',
      radius: 100,
      center_lat: CENTRE.lat,
      center_lng: CENTRE.lng,
      dwell_seconds: 0,
    });
    expect(added.statusCode, added.body).toBe(200);
    const [a, b, c] = await Promise.all([1, 2, 3].map(async () => addDevice(ctx(), { prisoner_id: (await addPrisoner(ctx())).id })));
    const start = Date.now() - 10 * 60_000;
    const position = (device: typeof a, where: typeof INSIDE, minute: number, second = 0) => ({
      device_id: device!.id,
      secret: device!.secret,
      ...where,
      timestamp: new Date(start + minute * 60_000 + second * 1000).toISOString(),
    });
    const transactions = vi.spyOn(ctx().app.db, 'transaction');
    /** One gateway request: its fixes are one group, so one batch. Answers how many transactions storing it took. */
    const batch = async (positions: ReturnType<typeof position>[]) => {
      const before = transactions.mock.calls.length;
      const res = await ctx().api('POST', '/ingest/positions', { positions });
      expect(res.statusCode, res.body).toBe(200);
      return transactions.mock.calls.length - before;
    };
    const alertsOf = (deviceId: string) =>
      ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, deviceId), eq(alerts.geofenceId, zone))).orderBy(alerts.id);
    const stateOf = async (deviceId: string) =>
      (await ctx().database.db.select().from(geofenceStates).where(and(eq(geofenceStates.deviceId, deviceId), eq(geofenceStates.geofenceId, zone))))[0];

    // Everyone starts outside; then a and b walk in together, c stays out: two alerts from one batch.
    expect(await batch([position(a, OUTSIDE, 0), position(b, OUTSIDE, 0), position(c, OUTSIDE, 0)])).toBe(0);
    expect(await batch([position(a, INSIDE, 1), position(b, INSIDE, 1), position(c, OUTSIDE, 1)])).toBe(0);
    const [alertA] = await alertsOf(a!.id);
    const [alertB] = await alertsOf(b!.id);
    expect(alertA).toMatchObject({ kind: 'geofence', alertType: 'Warning', endedAt: null });
    expect(alertB).toMatchObject({ kind: 'geofence', alertType: 'Warning', endedAt: null });
    expect(await alertsOf(c!.id)).toEqual([]);
    expect(await stateOf(a!.id)).toMatchObject({ violating: true, alertId: alertA!.id });
    expect(await stateOf(b!.id)).toMatchObject({ violating: true, alertId: alertB!.id });

    // a walks out (its alert ends, its state keeps the alert), b stays, c walks in: an end and a start in one statement.
    expect(await batch([position(a, OUTSIDE, 2), position(b, INSIDE, 2), position(c, INSIDE, 2)])).toBe(0);
    const [endedA] = await alertsOf(a!.id);
    expect(endedA!.endedAt?.getTime()).toBe(start + 2 * 60_000);
    expect(await stateOf(a!.id)).toMatchObject({ violating: false, alertId: alertA!.id });
    expect(await alertsOf(b!.id)).toHaveLength(1);
    const [alertC] = await alertsOf(c!.id);
    expect(await stateOf(c!.id)).toMatchObject({ violating: true, alertId: alertC!.id });
    expect(alertC!.id).toBeGreaterThan(alertB!.id);

    // a walks in and out again within one batch: two changes of one pair take the transaction, event by event; its
    // alert is still open, so the second violation folds into it (seen twice, ended again).
    expect(await batch([position(a, INSIDE, 3), position(a, OUTSIDE, 3, 50)])).toBe(1);
    const againA = await alertsOf(a!.id);
    expect(againA).toHaveLength(1);
    expect(againA[0]).toMatchObject({ id: alertA!.id, repeatCount: 1 });
    expect(againA[0]!.endedAt?.getTime()).toBe(start + 3 * 60_000 + 50_000);
    expect(await stateOf(a!.id)).toMatchObject({ violating: false, alertId: alertA!.id });

    // Every fix sent was stored, once, and no alert besides these three.
    const ids = [a!.id, b!.id, c!.id];
    expect(await ctx().database.db.select().from(positions).where(inArray(positions.deviceId, ids))).toHaveLength(11);
    expect(await ctx().database.db.select().from(alerts).where(inArray(alerts.deviceId, ids))).toHaveLength(3);
    transactions.mockRestore();
  });
});
