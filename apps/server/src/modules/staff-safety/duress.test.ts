// Duress in one tap (decision 100) through the real API, with the officer's tracker's fix sent through the OsmAnd port:
// "Need assistance" raises a Critical naming him and where he is (the geofence his fresh fix is in, else "location not
// known") with the nearest staff, reads "Staff: NAME" data, not a device id; another account's "Responding" is kept with
// who and when and pushed live; a second press repeats the alarm; the officer stands it down with a note.
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_PREFIX, AUTH_COOKIE, destinationPoint, type AlertPage, type AlertRecord, type CurrentDuress, type LiveMapAlerts } from '@prison/shared';
import { admins } from '../../db/schema';
import { addDevice, addStaff, browserSocket, connected, nextEvent, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { createTestAccount } from '../../../test/test-accounts';
import { describeEachEngine } from '../../../test/test-db';

const BASE: [number, number] = [53.2, -1.5];
const at = (metres: number, bearing = 90) => destinationPoint(BASE[0], BASE[1], metres, bearing);
const PASSWORD = 'a long passphrase for duress tests';

describeEachEngine('duress in one tap', (engine) => {
  const ctx = useListeningApp(engine);
  let accounts = 0;

  /** An account of this role linked to this staff record (or none), logged in: its api and its cookie. */
  const account = async (role: 'officer' | 'operator' | 'records', staffId: number | null, name: string) => {
    const username = `duress-${role}-${++accounts}`;
    const row = await createTestAccount(ctx().database.db, { username, name, password: PASSWORD });
    await ctx().database.db.update(admins).set({ role, blocks: role === 'officer' ? ['A'] : [], staffId }).where(eq(admins.id, row.id));
    const login = await ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password: PASSWORD } });
    expect(login.statusCode, login.body).toBe(200);
    const cookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
    const api = (method: string, url: string, payload?: unknown) =>
      ctx().app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: payload as Record<string, unknown> | undefined, headers: { cookie } });
    return { id: row.id, api, cookie };
  };
  const fix = async (deviceId: string, [lat, lon]: [number, number]) => {
    const res = await osmandGet(ctx().osmandUrl, { id: deviceId, lat, lon, timestamp: new Date(Date.now() - 1000).toISOString() });
    expect(res.status, res.body.message).toBe(200);
  };

  it('raises "Officer NAME needs assistance at PLACE" with the nearest staff; Responding is kept and pushed; a second press repeats; he stands it down', async () => {
    const yard = await ctx().api('POST', '/geofence/add', { geofence_id: 'duress-yard', name: 'Exercise yard', shape: 'Circle', type: 'Positive', alert_type: 'Warning', radius: 60, center_lat: BASE[0], center_lng: BASE[1] });
    expect(yard.statusCode, yard.body).toBeLessThan(300);
    const ada = await addStaff(ctx(), 'Ada', 'Ames', 'Guard');
    const adaTracker = await addDevice(ctx(), { staff_id: ada.id });
    const bea = await addStaff(ctx(), 'Bea', 'Bell', 'Guard');
    const beaTracker = await addDevice(ctx(), { staff_id: bea.id });
    await fix(adaTracker.id, at(5));
    await fix(beaTracker.id, at(30, 180));
    const officer = await account('officer', ada.id, 'Wing Officer A');
    const operator = await account('operator', null, 'Olive Operator');

    const officerSocket = browserSocket(ctx().baseUrl, officer.cookie, { deltas: true });
    const operatorSocket = browserSocket(ctx().baseUrl, operator.cookie, { deltas: true });
    try {
      await Promise.all([connected(officerSocket), connected(operatorSocket)]);
      const shown = nextEvent<{ alert_type: string; message: string; alertId: number }>(operatorSocket, 'showAlert', (e) => e.message.startsWith('Officer Ada'));
      const raised = await officer.api('POST', '/duress');
      expect(raised.statusCode, raised.body).toBe(201);
      const alert = raised.json<AlertRecord>();
      const text = 'Officer Ada Ames needs assistance at Exercise yard. Nearest staff: Bea Bell 30 m';
      expect(alert).toMatchObject({ alert_type: 'Critical', kind: 'duress', details: text, status: 'New', prisoner_id: null, device_id: adaTracker.id, staff_name: 'Ada Ames' });
      expect(alert.nearby_staff).toEqual([{ device_id: beaTracker.id, staff_id: bea.id, name: 'Bea Bell', metres: 30 }]);
      expect(await shown).toMatchObject({ alert_type: 'critical', message: text, alertId: alert.id });

      // Every list gives "Staff: NAME" data (the name, never the device id) and the live map marks him (decision 072).
      const listed = (await operator.api('GET', '/alert/prisoneralerts?limit=100')).json<AlertPage>().data.find((a) => a.id === alert.id);
      expect(listed).toMatchObject({ staff_name: 'Ada Ames', first_name: null });
      expect(listed!.staff_name).not.toBe(adaTracker.id);
      const danger = (await operator.api('GET', '/alert/live-map')).json<LiveMapAlerts>().staff_in_danger;
      expect(danger?.map((d) => [d.alert_id, d.device_id])).toEqual([[alert.id, adaTracker.id]]);

      // A second press while it is open repeats it, never refused, raising nothing new.
      const again = await officer.api('POST', '/duress');
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json<AlertRecord>()).toMatchObject({ id: alert.id, repeat_count: 2 });

      // Another account responds: kept with who and when, pushed to every browser (the officer's lists refetch).
      const refreshed = nextEvent<string>(officerSocket, 'dataChanged', (topic) => topic === 'alerts');
      const before = Date.now();
      const responded = await operator.api('POST', `/alert/${alert.id}/respond`);
      expect(responded.statusCode, responded.body).toBe(200);
      expect(await refreshed).toBe('alerts');
      const mine = (await officer.api('GET', '/duress/current')).json<CurrentDuress>().data!;
      expect(mine.id).toBe(alert.id);
      expect(mine.responding).toEqual([{ admin_id: operator.id, name: 'Olive Operator', at: expect.any(String) }]);
      expect(Date.parse(mine.responding![0]!.at)).toBeGreaterThanOrEqual(before - 1000);
      expect(mine.status).toBe('New');
      // Pressing again changes nothing; the officer himself is the one in danger; an unknown alert is 404.
      expect((await operator.api('POST', `/alert/${alert.id}/respond`)).json<AlertRecord>().responding).toHaveLength(1);
      const own = await officer.api('POST', `/alert/${alert.id}/respond`);
      expect([own.statusCode, own.json().message]).toEqual([409, 'You raised this alarm: stand it down when you are safe']);
      expect((await operator.api('POST', '/alert/2000000000/respond')).statusCode).toBe(404);

      // He stands it down with a note in words (400 naming the field without one); nobody else's account can.
      const noNote = await officer.api('POST', '/duress/stand-down', { note: '  ' });
      expect([noNote.statusCode, noNote.json().message]).toEqual([400, 'note: is required: say in words that help is no longer needed']);
      expect((await operator.api('POST', '/duress/stand-down', { note: 'Not mine to stand down' })).statusCode).toBe(404);
      const stood = await officer.api('POST', '/duress/stand-down', { note: 'False alarm, prisoner calmed down' });
      expect(stood.statusCode, stood.body).toBe(200);
      expect(stood.json<AlertRecord>()).toMatchObject({ id: alert.id, status: 'Resolved', note: 'Stood down: False alarm, prisoner calmed down', resolved_by: expect.stringMatching(/^duress-officer-/) });
      expect((await officer.api('GET', '/duress/current')).json<CurrentDuress>().data).toBeNull();
      expect((await operator.api('POST', `/alert/${alert.id}/respond`)).statusCode).toBe(409);
      expect((await operator.api('GET', '/alert/live-map')).json<LiveMapAlerts>().staff_in_danger).toEqual([]);
    } finally {
      officerSocket.disconnect();
      operatorSocket.disconnect();
    }
  });

  it('"location not known" without a fresh fix, and the account\'s own name when it is linked to no staff record', async () => {
    const cid = await addStaff(ctx(), 'Cid', 'Cole', 'Police');
    await addDevice(ctx(), { staff_id: cid.id });
    const linked = await account('officer', cid.id, 'Wing Officer C');
    const raised = (await linked.api('POST', '/duress')).json<AlertRecord>();
    expect(raised).toMatchObject({ details: 'Officer Cid Cole needs assistance at location not known', staff_name: 'Cid Cole', prisoner_id: null });

    const clerk = await account('records', null, 'Rita Records');
    const unlinked = await clerk.api('POST', '/duress');
    expect(unlinked.statusCode, unlinked.body).toBe(201);
    expect(unlinked.json<AlertRecord>()).toMatchObject({ details: 'Officer Rita Records needs assistance at location not known', staff_name: 'Rita Records', device_id: null });
    expect(unlinked.json<AlertRecord>()).not.toHaveProperty('nearby_staff');
  });
});
