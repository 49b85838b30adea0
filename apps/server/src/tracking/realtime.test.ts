// Browsers over Socket.IO: nothing without a session; the snapshot, batched changes, showAlert and userDisconnected.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { LocationChanges, LocationSnapshot, ShowAlertEvent } from '@prison/shared';
import { alerts, geofenceStates } from '../db/schema';
import { addDevice, addPrisoner, browserSocket, connected, nextEvent, osmandGet, useListeningApp } from './tracking-test-kit';
import { describeEachEngine } from '../../test/test-db';

const LAT = 51.5007;
const LNG = -0.1246;
// Short, so the offline test is quick; long enough that the other tests' devices stay online while they run.
const OFFLINE_SECONDS = 3;
const nowSeconds = () => Math.floor(Date.now() / 1000);

describeEachEngine('realtime to browsers', (engine) => {
  const ctx = useListeningApp(engine, { DEVICE_OFFLINE_SECONDS: OFFLINE_SECONDS });
  const send = (id: string, lat: number, lng: number, timestamp: number | string = Date.now()) =>
    osmandGet(ctx().osmandUrl, { id, lat, lon: lng, timestamp });

  it('refuses a browser socket without a session (connect_error) and it receives nothing', async () => {
    const socket = browserSocket(ctx().baseUrl);
    const received: string[] = [];
    socket.onAny((event: string) => received.push(event));
    await expect(connected(socket)).rejects.toThrow(/Authentication required/);
    const stranger = await addDevice(ctx());
    await send(stranger.id, LAT, LNG);
    await new Promise((r) => setTimeout(r, 400));
    expect(received).toEqual([]);
    socket.disconnect();
    const forged = browserSocket(ctx().baseUrl, 'auth-token=not-a-session');
    await expect(connected(forged)).rejects.toThrow(/Authentication required/);
    forged.disconnect();
  });

  it('sends the snapshot on connect and on request, then changes batched at most 4 times a second', async () => {
    const prisoner = await addPrisoner(ctx(), 'Snap', 'Shot');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    expect((await send(device.id, LAT, LNG)).status).toBe(200);
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      const snapshot = await nextEvent<LocationSnapshot>(socket, 'locationUpdate');
      expect(snapshot[device.id]).toMatchObject({ id: prisoner.id, name: 'Snap Shot', latitude: LAT, longitude: LNG, trackingId: device.id });
      const batches: LocationChanges[] = [];
      socket.on('locationChanges', (changes) => batches.push(changes));
      const start = Date.now();
      for (let i = 1; i <= 10; i++) await send(device.id, LAT + i * 0.0001, LNG, Date.now() + i);
      await new Promise((r) => setTimeout(r, 400));
      const elapsed = Date.now() - start;
      const mine = batches.filter((b) => b.changed[device.id]);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.length).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
      expect(mine.at(-1)!.changed[device.id]!.latitude).toBeCloseTo(LAT + 0.001, 6);
      socket.emit('requestSnapshot');
      const again = await nextEvent<LocationSnapshot>(socket, 'locationUpdate');
      expect(again[device.id]!.latitude).toBeCloseTo(LAT + 0.001, 6);
    } finally {
      socket.disconnect();
    }
  });

  it('a prisoner leaving a Negative geofence: stored alert, geofence state, showAlert; coming back ends it', async () => {
    const prisoner = await addPrisoner(ctx(), 'John', 'Doe');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const fence = await ctx().api('POST', '/geofence/add', {
      geofence_id: `perimeter-${engine}`,
      shape: 'Circle',
      name: 'Perimeter',
      type: 'Negative',
      alert_type: 'Critical',
      radius: 200,
      center_lat: LAT,
      center_lng: LNG,
    });
    expect(fence.statusCode).toBe(200);
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      // A minute ago: a device time ahead of the server would count as the receive time (docs/decisions/011).
      const t = nowSeconds() - 60;
      await send(device.id, LAT, LNG, t);
      const shown = nextEvent<ShowAlertEvent>(socket, 'showAlert', (a) => a.index === device.id && a.message.includes('Perimeter'));
      await send(device.id, LAT + 0.01, LNG, t + 1); // about 1.1 km north: outside
      const alert = await shown;
      expect(alert).toMatchObject({ index: device.id, alert_type: 'Critical', message: 'John Doe left Perimeter', prisonerName: 'John Doe' });
      const [stored] = await ctx().database.db.select().from(alerts).where(eq(alerts.id, alert.alertId!));
      expect(stored).toMatchObject({ kind: 'geofence', deviceId: device.id, prisonerId: prisoner.id, geofenceId: `perimeter-${engine}`, endedAt: null });
      const [state] = await ctx()
        .database.db.select()
        .from(geofenceStates)
        .where(and(eq(geofenceStates.deviceId, device.id), eq(geofenceStates.geofenceId, `perimeter-${engine}`)));
      expect(state).toMatchObject({ violating: true, alertId: alert.alertId });
      // Still outside, and a repeated fix: nothing new.
      await send(device.id, LAT + 0.011, LNG, t + 2);
      await send(device.id, LAT + 0.011, LNG, t + 2);
      await send(device.id, LAT, LNG, t + 3); // back inside
      const rows = await ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, device.id), eq(alerts.kind, 'geofence')));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.endedAt?.toISOString()).toBe(new Date((t + 3) * 1000).toISOString());
      const [after] = await ctx().database.db.select().from(geofenceStates).where(eq(geofenceStates.deviceId, device.id));
      expect(after!.violating).toBe(false);
    } finally {
      socket.disconnect();
      await ctx().api('DELETE', `/geofence/delete/perimeter-${engine}`);
    }
  });

  it('a silent device goes offline: Warning alert, showAlert and userDisconnected; its next fix brings it back', async () => {
    const prisoner = await addPrisoner(ctx(), 'Quiet', 'Man');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const disconnected = nextEvent<string>(socket, 'userDisconnected', (id) => id === device.id, 10_000);
      const shown = nextEvent<ShowAlertEvent>(socket, 'showAlert', (a) => a.index === device.id, 10_000);
      await send(device.id, LAT, LNG);
      expect(await disconnected).toBe(device.id);
      expect(await shown).toMatchObject({ alert_type: 'Warning', message: "Quiet Man's tracker is offline" });
      expect((await ctx().api('GET', `/devices/${device.id}`)).json().online).toBe(false);
      socket.emit('requestSnapshot');
      expect((await nextEvent<LocationSnapshot>(socket, 'locationUpdate'))[device.id]).toBeUndefined();
      const back = nextEvent<LocationChanges>(socket, 'locationChanges', (c) => !!c.changed[device.id]);
      await send(device.id, LAT, LNG, Date.now() + 10);
      await back;
      expect((await ctx().api('GET', `/devices/${device.id}`)).json().online).toBe(true);
      const [offline] = await ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, device.id), eq(alerts.kind, 'offline')));
      expect(offline!.endedAt).not.toBeNull();
    } finally {
      socket.disconnect();
    }
  });
});
