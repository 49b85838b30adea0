// Escorts (decision 035): the API (create, list active, end, bounded input, audit) and live separation raising a stored
// Critical alert that reaches browsers and ends when the two are close again; the perimeter held back meanwhile; staff
// trackers judged by no geofence. Both engines.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Escort, ShowAlertEvent } from '@prison/shared';
import { destinationPoint } from '@prison/shared';
import { alerts, auditLog, escorts, prisoners } from '../../db/schema';
import { addDevice, addPrisoner, addStaff, browserSocket, connected, nextEvent, useListeningApp } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';

describeEachEngine('escorts', (engine) => {
  const ctx = useListeningApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);

  it('creates (default 50 m), lists active and ends escorts, each audited; bad input is a 400 naming the field', async () => {
    const prisoner = await addPrisoner(ctx(), 'Ray', 'Cole');
    const officer = await addStaff(ctx(), 'Sam', 'Vimes');
    await addDevice(ctx(), { staff_id: officer.id });
    const created = await api('POST', '/escorts', { prisoner_id: prisoner.id, staff_id: officer.id });
    expect(created.statusCode, created.body).toBe(200);
    const escort = created.json().escort as Escort;
    expect(escort).toMatchObject({
      prisoner: { prisoner_id: prisoner.id, first_name: 'Ray', last_name: 'Cole' },
      staff: { staff_id: officer.id, first_name: 'Sam', last_name: 'Vimes', role: 'Police' },
      max_distance_m: 50,
      until: null,
      ended_at: null,
      created_by: 'warden',
      active: true,
      unmonitored: false,
      // The officer's tracker has not reported yet: nothing is exempted until it does (decision 037).
      escorting: false,
      not_escorting_reason: 'No position from the officer yet',
    });
    // One escort at a time per prisoner.
    expect((await api('POST', '/escorts', { prisoner_id: prisoner.id, staff_id: officer.id })).statusCode).toBe(409);
    const later = await addPrisoner(ctx(), 'Tia', 'Dunn');
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const planned = await api('POST', '/escorts', { prisoner_id: later.id, staff_id: officer.id, max_distance_m: 200, from: future, until: new Date(Date.now() + 7_200_000).toISOString() });
    expect(planned.statusCode, planned.body).toBe(200);
    expect(planned.json().escort).toMatchObject({ max_distance_m: 200, active: false });

    for (const [body, field] of [
      [{ prisoner_id: prisoner.id }, 'staff_id'],
      [{ prisoner_id: prisoner.id, staff_id: officer.id, max_distance_m: 4 }, 'max_distance_m'],
      [{ prisoner_id: prisoner.id, staff_id: officer.id, max_distance_m: 5001 }, 'max_distance_m'],
      [{ prisoner_id: prisoner.id, staff_id: officer.id, max_distance_m: 'far' }, 'max_distance_m'],
      [{ prisoner_id: prisoner.id, staff_id: officer.id, from: 'yesterday' }, 'from'],
      [{ prisoner_id: 987654, staff_id: officer.id }, 'prisoner_id'],
      [{ prisoner_id: prisoner.id, staff_id: 987654 }, 'staff_id'],
    ] as const) {
      const res = await api('POST', '/escorts', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api('GET', '/escorts?active=maybe')).statusCode).toBe(400);
    expect((await api('GET', '/escorts?prisoner_id=0')).json().message).toMatch(/^prisoner_id: /);
    // One prisoner's escorts only.
    const ofLater = (await api('GET', `/escorts?prisoner_id=${later.id}`)).json().data as Escort[];
    expect(ofLater.map((e) => e.id)).toEqual([planned.json().escort.id]);

    const active = (await api('GET', '/escorts?active=true')).json().data as Escort[];
    expect(active.map((e) => e.id)).toContain(escort.id);
    expect(active.map((e) => e.id)).not.toContain(planned.json().escort.id);
    const ended = await api('POST', `/escorts/${escort.id}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().escort).toMatchObject({ ended_by: 'warden', active: false });
    expect((await api('POST', `/escorts/${escort.id}/end`)).statusCode).toBe(409);
    expect((await api('POST', '/escorts/987654/end')).statusCode).toBe(404);
    expect(((await api('GET', '/escorts?active=true')).json().data as Escort[]).map((e) => e.id)).not.toContain(escort.id);
    // Ended, the prisoner can be escorted again.
    expect((await api('POST', '/escorts', { prisoner_id: prisoner.id, staff_id: officer.id })).statusCode).toBe(200);

    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'escort'), eq(auditLog.entityId, String(escort.id)))).orderBy(auditLog.id);
    expect(audit.map((e) => e.action)).toEqual(['create', 'end']);
  });

  it('refuses (400 naming the field, nothing created) a prisoner not in custody, an officer without a tracker unless unmonitored, and dates out of bounds', async () => {
    const prisoner = await addPrisoner(ctx(), 'Abe', 'Kerr');
    const officer = await addStaff(ctx(), 'Bo', 'Lind');
    await addDevice(ctx(), { staff_id: officer.id });
    const untracked = await addStaff(ctx(), 'Cy', 'Moss', 'Guard');
    const released = await addPrisoner(ctx(), 'Dee', 'Nash');
    const transferred = await addPrisoner(ctx(), 'Eli', 'Orr');
    await ctx().database.db.update(prisoners).set({ status: 'Released' }).where(eq(prisoners.prisonerId, released.id));
    await ctx().database.db.update(prisoners).set({ status: 'Transferred' }).where(eq(prisoners.prisonerId, transferred.id));
    const ok = { prisoner_id: prisoner.id, staff_id: officer.id };
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const table: [string, Record<string, unknown>, string][] = [
      ['a Released prisoner', { ...ok, prisoner_id: released.id }, 'prisoner_id'],
      ['a Transferred prisoner', { ...ok, prisoner_id: transferred.id }, 'prisoner_id'],
      ['an officer without a tracker', { ...ok, staff_id: untracked.id }, 'staff_id'],
      ['an officer without a tracker, unmonitored: false', { ...ok, staff_id: untracked.id, unmonitored: false }, 'staff_id'],
      ['unmonitored not a boolean', { ...ok, unmonitored: 'yes' }, 'unmonitored'],
      ['from in 1901', { ...ok, from: '1901-01-01T00:00:00Z' }, 'from'],
      ['from in 2099', { ...ok, from: '2099-01-01T00:00:00Z' }, 'from'],
      ['from more than a day ago', { ...ok, from: at(-25) }, 'from'],
      ['from more than 7 days ahead', { ...ok, from: at(7 * 24 + 1) }, 'from'],
      ['until in 2099', { ...ok, until: '2099-01-01T00:00:00Z' }, 'until'],
      ['until in 1901', { ...ok, until: '1901-01-01T00:00:00Z' }, 'until'],
      ['until in the past', { ...ok, until: at(-1 / 60) }, 'until'],
      ['until before from', { ...ok, from: at(2), until: at(1) }, 'until'],
      ['until more than 7 days after from', { ...ok, from: at(-1), until: at(7 * 24) }, 'until'],
      ['from not a date', { ...ok, from: 'yesterday' }, 'from'],
      ['max_distance_m too small', { ...ok, max_distance_m: 4 }, 'max_distance_m'],
    ];
    const count = async () => (await ctx().database.db.select().from(escorts)).length;
    const before = await count();
    for (const [name, body, field] of table) {
      const res = await api('POST', '/escorts', body);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().message, name).toMatch(new RegExp(`^${field}: `));
    }
    expect(await count()).toBe(before);
    // The refusal of a tracker-less officer says what to do.
    expect((await api('POST', '/escorts', { ...ok, staff_id: untracked.id })).json().message).toMatch(/wears no tracker.*unmonitored/);
    // Said to be unmonitored, it is recorded, and it exempts nothing.
    const unmonitored = await api('POST', '/escorts', { ...ok, staff_id: untracked.id, unmonitored: true });
    expect(unmonitored.statusCode, unmonitored.body).toBe(200);
    expect(unmonitored.json().escort).toMatchObject({ unmonitored: true, active: true, escorting: false, not_escorting_reason: 'Unmonitored: record only' });
    // The bounds' edges pass: from a day ago (less a minute), until 7 days after it.
    await api('POST', `/escorts/${unmonitored.json().escort.id}/end`);
    // One clock reading for both ends: two readings a millisecond apart made until 7 days and 1 ms after from.
    const from = Date.now() - 23.9 * 3_600_000;
    const edges = await api('POST', '/escorts', { ...ok, from: new Date(from).toISOString(), until: new Date(from + 7 * 24 * 3_600_000).toISOString() });
    expect(edges.statusCode, edges.body).toBe(200);
  });

  it('apart for longer than 30 s raises one stored Critical alert that ends when they are close again; the perimeter waits meanwhile', async () => {
    const prisoner = await addPrisoner(ctx(), 'Una', 'Bell');
    const officer = await addStaff(ctx(), 'Vic', 'Hart', 'Guard');
    const dp = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const ds = await addDevice(ctx(), { staff_id: officer.id });
    const base: [number, number] = [51.5, -0.12];
    // A perimeter of 1 km around the base.
    expect(
      (await api('POST', '/geofence/add', { geofence_id: 'esc-perimeter', name: 'Perimeter', shape: 'Circle', type: 'Negative', alert_type: 'Critical', radius: 1000, center_lat: base[0], center_lng: base[1] })).statusCode,
    ).toBeLessThan(300);
    // In force from before the fixes below (they are dated in the last two minutes).
    const from = new Date(Date.now() - 300_000).toISOString();
    expect((await api('POST', '/escorts', { prisoner_id: prisoner.id, staff_id: officer.id, max_distance_m: 50, from })).statusCode).toBe(200);
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      let t = Date.now() - 120_000;
      const fix = (deviceId: string, metresEast: number, seconds = 1) => {
        const [latitude, longitude] = destinationPoint(base[0], base[1], metresEast, 90);
        t += seconds * 1000;
        return ctx().app.tracking.submit([{ deviceId, latitude, longitude, recordedAt: new Date(t) }]);
      };
      const ofKind = (kind: string) =>
        ctx().database.db.select().from(alerts).where(and(eq(alerts.kind, kind), eq(alerts.prisonerId, prisoner.id)));
      await fix(ds.id, 0);
      await fix(dp.id, 10);
      // Both leave the perimeter together (a hospital escort): no perimeter alert, for the staff tracker neither.
      await fix(ds.id, 1500);
      await fix(dp.id, 1510);
      await fix(dp.id, 1520, 20);
      expect(await ofKind('geofence')).toEqual([]);
      expect((await ctx().database.db.select().from(alerts).where(eq(alerts.deviceId, ds.id))).length).toBe(0);
      // Apart: 120 m from the officer, then still apart after more than 30 s.
      await fix(dp.id, 1620);
      await fix(dp.id, 1625, 20);
      expect(await ofKind('unescorted')).toEqual([]);
      const shown = nextEvent<ShowAlertEvent>(socket, 'showAlert', (e) => e.message.includes('unescorted'));
      await fix(dp.id, 1630, 11);
      const event = await shown;
      expect(event).toMatchObject({ alert_type: 'critical', message: 'Una Bell is unescorted (130 m from Vic Hart)' });
      const [unescorted] = await ofKind('unescorted');
      expect(unescorted).toMatchObject({ alertType: 'Critical', endedAt: null, deviceId: dp.id });
      // The escort failed: outside the perimeter, the prisoner is raised at once.
      expect((await ofKind('geofence')).map((a) => a.details)).toEqual(['Una Bell left Perimeter']);
      // The officer catches up: the unescorted alert ends.
      await fix(ds.id, 1620);
      const [after] = await ofKind('unescorted');
      expect(after!.endedAt).not.toBeNull();
      expect((await ofKind('unescorted')).length).toBe(1);
    } finally {
      socket.disconnect();
    }
  });

  it('ending an escort ends its open unescorted alert (the alert stays to be worked)', async () => {
    const prisoner = await addPrisoner(ctx(), 'Wes', 'Ford');
    const officer = await addStaff(ctx(), 'Xan', 'Moor', 'Guard');
    const dp = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const ds = await addDevice(ctx(), { staff_id: officer.id });
    const base: [number, number] = [51.6, -0.2];
    const from = new Date(Date.now() - 300_000).toISOString();
    const created = await api('POST', '/escorts', { prisoner_id: prisoner.id, staff_id: officer.id, max_distance_m: 50, from });
    expect(created.statusCode, created.body).toBe(200);
    let t = Date.now() - 120_000;
    const fix = (deviceId: string, metresEast: number, seconds: number) => {
      const [latitude, longitude] = destinationPoint(base[0], base[1], metresEast, 90);
      t += seconds * 1000;
      return ctx().app.tracking.submit([{ deviceId, latitude, longitude, recordedAt: new Date(t) }]);
    };
    await fix(ds.id, 0, 1);
    await fix(dp.id, 200, 1);
    await fix(dp.id, 205, 31);
    const unescorted = () =>
      ctx().database.db.select().from(alerts).where(and(eq(alerts.kind, 'unescorted'), eq(alerts.prisonerId, prisoner.id)));
    const [open] = await unescorted();
    expect(open).toMatchObject({ endedAt: null, status: 'New' });
    const ended = await api('POST', `/escorts/${(created.json().escort as Escort).id}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    const [after] = await unescorted();
    expect(after!.endedAt).not.toBeNull();
    expect(after!.status).toBe('New');
  });
});
