// Staff in danger (decision 064) with real fixes through the OsmAnd port: a staff SOS names the officer
// and the nearest three other staff trackers (Critical, shown to everyone); a prisoner's SOS keeps its text; a tracker
// motionless inside the site raises "may be down" once per still period; a fall raises it at once. Both engines.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { destinationPoint, type AlertPage, type LiveMapAlerts, type ShowAlertEvent } from '@prison/shared';
import { alerts } from '../../db/schema';
import { addDevice, addPrisoner, addStaff, browserSocket, connected, nextEvent, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';

const BASE: [number, number] = [53.1, -1.4];
const at = (metres: number, bearing = 90) => destinationPoint(BASE[0], BASE[1], metres, bearing);
const MAN_DOWN_SECONDS = 30;

describeEachEngine('staff in danger', (engine) => {
  const ctx = useListeningApp(engine, { MAN_DOWN_SECONDS });
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);
  /** One fix through the OsmAnd port at a given time (ms). */
  const fix = async (deviceId: string, [lat, lon]: [number, number], time: number, extra: Record<string, string> = {}) => {
    const res = await osmandGet(ctx().osmandUrl, { id: deviceId, lat, lon, timestamp: new Date(time).toISOString(), ...extra });
    expect(res.status, res.body.message).toBe(200);
  };
  const ofDevice = (deviceId: string, kind: string) => ctx().database.db.select().from(alerts).where(and(eq(alerts.deviceId, deviceId), eq(alerts.kind, kind)));

  it('a staff SOS is "Officer NAME needs assistance" with the nearest three other staff, Critical, to every browser; a prisoner SOS is unchanged', async () => {
    const names = ['Ada Ames', 'Bea Bell', 'Cid Cole', 'Dot Dunn', 'Eve Earl'];
    const trackers = [];
    for (const name of names) {
      const [first, last] = name.split(' ');
      trackers.push(await addDevice(ctx(), { staff_id: (await addStaff(ctx(), first, last)).id }));
    }
    const now = Date.now() - 10_000;
    // Ada at the base; the others 80, 25, 60 and 300 m away.
    await fix(trackers[0]!.id, at(0), now);
    await fix(trackers[1]!.id, at(80), now);
    await fix(trackers[2]!.id, at(25, 0), now);
    await fix(trackers[3]!.id, at(60, 180), now);
    await fix(trackers[4]!.id, at(300), now);
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const shown = nextEvent<ShowAlertEvent>(socket, 'showAlert', (e) => e.message.startsWith('Officer'));
      await fix(trackers[0]!.id, at(1), now + 1000, { alarm: 'sos' });
      const expected = 'Officer Ada Ames needs assistance. Nearest staff: Cid Cole 25 m, Dot Dunn 60 m, Bea Bell 79 m';
      expect(await shown).toMatchObject({ alert_type: 'critical', message: expected });
      const [stored] = await ofDevice(trackers[0]!.id, 'sos');
      expect(stored).toMatchObject({ alertType: 'Critical', details: expected, prisonerId: null });
      // Stored as data too (decision 072): each one's tracker, staff member and distance, nearest first.
      const nearby = [
        { device_id: trackers[2]!.id, staff_id: trackers[2]!.staff_id, name: 'Cid Cole', metres: 25 },
        { device_id: trackers[3]!.id, staff_id: trackers[3]!.staff_id, name: 'Dot Dunn', metres: 60 },
        { device_id: trackers[1]!.id, staff_id: trackers[1]!.staff_id, name: 'Bea Bell', metres: 79 },
      ];
      expect(stored!.nearbyStaff).toEqual(nearby);
      // The API gives them with the alert, and the live map its open staff SOS alerts to mark them on the map.
      const listed = (await api('GET', '/alert/prisoneralerts?limit=100')).json<AlertPage>().data.find((a) => a.id === stored!.id);
      expect(listed).toMatchObject({ details: expected, nearby_staff: nearby });
      const liveMap = (await api('GET', '/alert/live-map')).json<LiveMapAlerts>();
      expect(liveMap.staff_in_danger).toEqual([
        { alert_id: stored!.id, device_id: trackers[0]!.id, details: expected, timestamp: stored!.timestamp.toISOString(), status: 'New', nearby_staff: nearby },
      ]);
    } finally {
      socket.disconnect();
    }
    const prisoner = await addPrisoner(ctx(), 'Pia', 'Pratt');
    const dp = await addDevice(ctx(), { prisoner_id: prisoner.id });
    await fix(dp.id, at(5), Date.now() - 1000, { alarm: 'sos' });
    expect((await ofDevice(dp.id, 'sos')).map((a) => [a.details, a.nearbyStaff])).toEqual([["SOS from Pia Pratt's tracker", null]]);
    const prisonerAlert = (await api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}`)).json<AlertPage>().data[0];
    expect(prisonerAlert).toBeDefined();
    expect(prisonerAlert).not.toHaveProperty('nearby_staff');
    // Resolved, the officer's SOS leaves the live map's list.
    const [officerSos] = await ofDevice(trackers[0]!.id, 'sos');
    expect((await api('POST', `/alert/${officerSos!.id}/acknowledge`, { note: 'Officers sent to him' })).statusCode).toBe(200);
    expect((await api('POST', `/alert/${officerSos!.id}/resolve`, { note: 'Officer safe' })).statusCode).toBe(200);
    expect((await api('GET', '/alert/live-map')).json<LiveMapAlerts>().staff_in_danger).toEqual([]);
  });

  it('a staff tracker motionless inside the site raises "may be down" once per still period; moving re-arms it; a fall raises it at once', async () => {
    expect((await api('POST', '/geofence/add', { geofence_id: 'sd-site', name: 'Site', shape: 'Circle', type: 'Negative', alert_type: 'Critical', radius: 1000, center_lat: BASE[0], center_lng: BASE[1] })).statusCode).toBeLessThan(300);
    const officer = await addStaff(ctx(), 'Gus', 'Still');
    const tracker = await addDevice(ctx(), { staff_id: officer.id });
    const start = Date.now() - 120_000;
    // Still (within 2 m) for 35 s: raised by the fix that passes MAN_DOWN_SECONDS.
    await fix(tracker.id, at(100), start);
    await fix(tracker.id, at(101), start + 10_000);
    await fix(tracker.id, at(100.5), start + 20_000);
    expect(await ofDevice(tracker.id, 'staff_down')).toEqual([]);
    await fix(tracker.id, at(101.5), start + 35_000);
    await fix(tracker.id, at(101), start + 45_000);
    await ctx().app.tracking.checkSilence(new Date());
    const down = await ofDevice(tracker.id, 'staff_down');
    expect(down.map((a) => [a.alertType, a.details])).toEqual([['Critical', 'Officer Gus Still may be down']]);
    // Moving 10 m re-arms it; still again, the tick raises it (no fix needed).
    await fix(tracker.id, at(111), start + 50_000);
    await fix(tracker.id, at(111), start + 55_000);
    expect((await ofDevice(tracker.id, 'staff_down')).length).toBe(1);
    await ctx().app.tracking.checkSilence(new Date(start + 55_000 + (MAN_DOWN_SECONDS + 1) * 1000));
    await ctx().app.tracking.checkSilence(new Date(start + 55_000 + (MAN_DOWN_SECONDS + 20) * 1000));
    expect((await ofDevice(tracker.id, 'staff_down')).length).toBe(2);

    // Outside the site, still means nothing.
    const outside = await addDevice(ctx(), { staff_id: (await addStaff(ctx(), 'Hal', 'Out')).id });
    await fix(outside.id, at(3000), start);
    await fix(outside.id, at(3000), start + 100_000);
    expect(await ofDevice(outside.id, 'staff_down')).toEqual([]);

    // A fall (OsmAnd alarm=fall) raises it at once, named the same way.
    const faller = await addDevice(ctx(), { staff_id: (await addStaff(ctx(), 'Ivy', 'Fall')).id });
    await fix(faller.id, at(200), Date.now() - 2000, { alarm: 'fall' });
    expect((await ofDevice(faller.id, 'staff_down')).map((a) => a.details)).toEqual(['Officer Ivy Fall may be down']);
  });
});
