// Controlled movements (decision 064) with real fixes through the OsmAnd port: one arrives, one goes
// overdue, one goes off route (one Warning each, once); a group takes the worst state; bad input is a 400 naming the
// field and changes nothing; the start is audited; browsers are told to refetch. A movement authorises (decision 099):
// its closed destination (given a reason) and the zones it names on the way raise nothing for its prisoners until it
// ends; Negative and Informational destinations are refused. Both engines.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { destinationPoint, type Movement } from '@prison/shared';
import { alerts, auditLog, cells, movements, prisoners } from '../../db/schema';
import { loginWithCaseload } from '../../../test/caseload-accounts';
import { addDevice, addPrisoner, addStaff, browserSocket, connected, nextEvent, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { waitFor } from '../../../test/wait-for';
import { describeEachEngine } from '../../../test/test-db';

const BASE: [number, number] = [52.2, 0.1];
/** Why prisoners go to a zone whose alarm is in force (every unscheduled Positive zone is, decision 099). */
const REASON = 'Booked appointment, escorted there';
/** A point this many metres from the base on this bearing. */
const at = (metres: number, bearing = 90) => destinationPoint(BASE[0], BASE[1], metres, bearing);

describeEachEngine('controlled movements', (engine) => {
  const ctx = useListeningApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);
  let last = 0;
  /** One fix through the OsmAnd port, dated now (and always later than the one before). */
  const fix = async (deviceId: string, [lat, lon]: [number, number], extra: Record<string, string> = {}) => {
    last = Math.max(last + 1, Date.now());
    const res = await osmandGet(ctx().osmandUrl, { id: deviceId, lat, lon, timestamp: new Date(last).toISOString(), ...extra });
    expect(res.status, res.body.message).toBe(200);
  };
  /** A zone; a Positive one is a Warning zone (a place prisoners go, closed whenever its alarm is in force). */
  const zone = async (geofence_id: string, name: string, [lat, lng]: [number, number], radius: number, type = 'Positive', extra: Record<string, unknown> = {}) => {
    const alert_type = type === 'Positive' ? 'Warning' : 'Critical';
    const res = await api('POST', '/geofence/add', { geofence_id, name, shape: 'Circle', type, alert_type, radius, center_lat: lat, center_lng: lng, ...extra });
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  const movementAlerts = (prisonerId: number) => ctx().database.db.select().from(alerts).where(and(eq(alerts.kind, 'movement'), eq(alerts.prisonerId, prisonerId)));
  const listed = async (id: number) => ((await api('GET', '/movements')).json().data as Movement[]).find((m) => m.id === id)!;

  it('refuses bad input with a 400 naming the field and stores nothing; a start is audited', async () => {
    await zone('mv-school', 'Education', at(500, 180), 30);
    const prisoner = await addPrisoner(ctx(), 'Bo', 'Gray');
    const due = new Date(Date.now() + 600_000).toISOString();
    const ok = { prisoner_ids: [prisoner.id], destination_geofence_id: 'mv-school', due_by: due, reason: REASON };
    const countBefore = (await ctx().database.db.select().from(movements)).length;
    for (const [body, field] of [
      [{ ...ok, prisoner_ids: [] }, 'prisoner_ids'],
      [{ ...ok, prisoner_ids: [prisoner.id, prisoner.id] }, 'prisoner_ids'],
      [{ ...ok, prisoner_ids: ['x'] }, 'prisoner_ids'],
      [{ ...ok, prisoner_ids: [987654] }, 'prisoner_ids'],
      [{ ...ok, destination_geofence_id: 'nowhere' }, 'destination_geofence_id'],
      [{ ...ok, destination_geofence_id: undefined }, 'destination_geofence_id'],
      [{ ...ok, due_by: 'soon' }, 'due_by'],
      [{ ...ok, due_by: new Date(Date.now() - 60_000).toISOString() }, 'due_by'],
      [{ ...ok, due_by: new Date(Date.now() + 13 * 3_600_000).toISOString() }, 'due_by'],
      [{ ...ok, escort_staff_id: 987654 }, 'escort_staff_id'],
      [{ ...ok, via_geofence_ids: ['nowhere'] }, 'via_geofence_ids'],
      [{ ...ok, via_geofence_ids: ['mv-school'] }, 'via_geofence_ids'],
      [{ ...ok, reason: 'short' }, 'reason'],
    ] as const) {
      const res = await api('POST', '/movements', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message, JSON.stringify(body)).toMatch(new RegExp(`^${field}`));
    }
    expect((await api('GET', '/movements?prisoner_id=zero')).statusCode).toBe(400);
    expect((await ctx().database.db.select().from(movements)).length).toBe(countBefore);

    const escort = await addStaff(ctx(), 'Cy', 'Penn');
    const created = await api('POST', '/movements', { ...ok, escort_staff_id: escort.id });
    expect(created.statusCode, created.body).toBe(200);
    const movement = created.json().movement as Movement;
    expect(movement).toMatchObject({
      state: 'underway',
      destination: { geofence_id: 'mv-school', name: 'Education' },
      escort: { staff_id: escort.id, first_name: 'Cy', last_name: 'Penn' },
      created_by: 'warden',
      prisoners: [{ prisoner_id: prisoner.id, first_name: 'Bo', last_name: 'Gray', state: 'underway', arrived_at: null }],
    });
    const audit = await ctx().database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'movement'), eq(auditLog.entityId, String(movement.id)))).orderBy(auditLog.id);
    expect(audit.map((e) => e.action)).toEqual(['create']);
    // The prisoner's details ask for his movements only.
    const his = (await api('GET', `/movements?prisoner_id=${prisoner.id}`)).json().data as Movement[];
    expect(his.map((m) => m.id)).toEqual([movement.id]);
  });

  it('with real OsmAnd fixes: one arrives, one goes overdue, one goes off route, each Warning once; a group shows its worst', async () => {
    await zone('mv-perimeter', 'Site', BASE, 2000, 'Negative');
    await zone('mv-wing', 'Wing A', at(0), 40);
    await zone('mv-workshop', 'Workshop', at(400), 40);
    await zone('mv-health', 'Healthcare', at(400, 0), 40);
    const [ann, ben, cal] = [await addPrisoner(ctx(), 'Ann', 'Arrive'), await addPrisoner(ctx(), 'Ben', 'Late'), await addPrisoner(ctx(), 'Cal', 'Stray')];
    const [da, db, dc] = [await addDevice(ctx(), { prisoner_id: ann.id }), await addDevice(ctx(), { prisoner_id: ben.id }), await addDevice(ctx(), { prisoner_id: cal.id })];
    // All three in Wing A before the start: that (and the site) is their origin.
    for (const d of [da, db, dc]) await fix(d.id, at(5));
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const group = await api('POST', '/movements', { prisoner_ids: [ann.id, cal.id], destination_geofence_id: 'mv-workshop', due_by: new Date(Date.now() + 600_000).toISOString(), reason: REASON });
      expect(group.statusCode, group.body).toBe(200);
      const groupId = (group.json().movement as Movement).id;
      const late = await api('POST', '/movements', { prisoner_ids: [ben.id], destination_geofence_id: 'mv-workshop', due_by: new Date(Date.now() + 1500).toISOString(), reason: REASON });
      expect(late.statusCode, late.body).toBe(200);
      const lateId = (late.json().movement as Movement).id;

      // Ann on the way (inside the site and nothing else), then inside the Workshop: arrived, and browsers hear of it.
      await fix(da.id, at(200));
      expect((await listed(groupId)).prisoners.find((p) => p.prisoner_id === ann.id)!.state).toBe('underway');
      const refetch = nextEvent<string>(socket, 'dataChanged', (topic) => topic === 'movements');
      await fix(da.id, at(400));
      await refetch;
      expect((await listed(groupId)).prisoners.find((p) => p.prisoner_id === ann.id)).toMatchObject({ state: 'arrived' });
      expect((await listed(groupId)).state).toBe('underway');

      // Cal enters Healthcare on the way: off route, one Warning however many fixes there.
      await fix(dc.id, at(400, 0));
      await fix(dc.id, at(401, 0));
      await waitFor('off-route alert', async () => (await movementAlerts(cal.id)).length > 0);
      await fix(dc.id, at(402, 0));
      const offRoute = await movementAlerts(cal.id);
      expect(offRoute.map((a) => [a.alertType, a.details])).toEqual([['Warning', 'Cal Stray entered Healthcare on the way to Workshop']]);
      const shown = await listed(groupId);
      expect(shown.prisoners.find((p) => p.prisoner_id === cal.id)).toMatchObject({ state: 'off_route', off_route_geofence: 'Healthcare' });
      // The group's state is the worst of its prisoners'.
      expect(shown.state).toBe('off_route');

      // Ben never reaches the Workshop: overdue once due_by passes, one Warning however many ticks.
      await fix(db.id, at(100));
      await waitFor('overdue', async () => {
        await ctx().app.tracking.checkSilence(new Date());
        return (await listed(lateId)).state === 'overdue';
      });
      await ctx().app.tracking.checkSilence(new Date(Date.now() + 10_000));
      const overdue = await movementAlerts(ben.id);
      expect(overdue.map((a) => [a.alertType, a.details, a.deviceId])).toEqual([['Warning', 'Ben Late has not arrived at Workshop', db.id]]);
      // Ann arrived in time: never overdue nor off route.
      expect(await movementAlerts(ann.id)).toEqual([]);
      // The prisoner's details: his current movement.
      const bens = (await api('GET', `/movements?prisoner_id=${ben.id}`)).json().data as Movement[];
      expect(bens.map((m) => [m.id, m.state])).toEqual([[lateId, 'overdue']]);
    } finally {
      socket.disconnect();
    }
  });

  it("a wing officer starts movements only for his blocks' prisoners and lists only theirs; an auditor may not start one", async () => {
    await zone('mv-visits', 'Visits', at(600, 270), 30);
    await ctx().database.db.insert(cells).values([
      { cellId: 'MV-A-1', block: 'MV-A', capacity: 2, securityLevel: 'Low' },
      { cellId: 'MV-B-1', block: 'MV-B', capacity: 2, securityLevel: 'Low' },
    ]);
    const mine = await addPrisoner(ctx(), 'Dan', 'Mine');
    const theirs = await addPrisoner(ctx(), 'Eli', 'Theirs');
    await ctx().database.db.update(prisoners).set({ cellId: 'MV-A-1' }).where(eq(prisoners.prisonerId, mine.id));
    await ctx().database.db.update(prisoners).set({ cellId: 'MV-B-1' }).where(eq(prisoners.prisonerId, theirs.id));
    const officer = await loginWithCaseload(ctx(), ['MV-A'], 'officer');
    const as = (cookie: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
      ctx().app.inject({ method, url: `/api/v1${url}`, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });
    const due = new Date(Date.now() + 600_000).toISOString();
    const refused = await as(officer, 'POST', '/movements', { prisoner_ids: [mine.id, theirs.id], destination_geofence_id: 'mv-visits', due_by: due, reason: REASON });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`prisoner_ids: prisoner ${theirs.id} does not exist`);
    const started = await as(officer, 'POST', '/movements', { prisoner_ids: [mine.id], destination_geofence_id: 'mv-visits', due_by: due, reason: REASON });
    expect(started.statusCode, started.body).toBe(200);
    const theirMovement = await api('POST', '/movements', { prisoner_ids: [theirs.id], destination_geofence_id: 'mv-visits', due_by: due, reason: REASON });
    expect(theirMovement.statusCode).toBe(200);
    // Another block's movement is one that does not exist for him: he cannot end or cancel it; his own he can.
    const theirId = (theirMovement.json().movement as Movement).id;
    for (const action of ['end', 'cancel']) {
      const res = await as(officer, 'POST', `/movements/${theirId}/${action}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`Movement ${theirId} not found`);
    }
    expect((await as(officer, 'POST', `/movements/${(started.json().movement as Movement).id}/cancel`)).json().movement).toMatchObject({ cancelled: true, in_force: false, ended_by: expect.any(String) });
    const seen = (await as(officer, 'GET', '/movements')).json().data as Movement[];
    const prisonersSeen = seen.flatMap((m) => m.prisoners.map((p) => p.prisoner_id));
    expect(prisonersSeen).toContain(mine.id);
    expect(prisonersSeen).not.toContain(theirs.id);
    const auditor = await loginWithCaseload(ctx(), [], 'auditor');
    expect((await as(auditor, 'POST', '/movements', { prisoner_ids: [mine.id], destination_geofence_id: 'mv-visits', due_by: due, reason: REASON })).statusCode).toBe(403);
    expect((await as(auditor, 'POST', `/movements/${theirId}/end`)).statusCode).toBe(403);
    expect((await as(auditor, 'GET', '/movements')).statusCode).toBe(200);
  });

  it('authorises: a closed destination given a reason and a zone on the way raise nothing for its prisoners until it ends; where no prisoner is sent is refused', async () => {
    await ctx().database.db.insert(cells).values({ cellId: 'MV2-1', block: 'MV2', capacity: 2, securityLevel: 'Low' });
    await zone('mv2-site', 'Site', BASE, 3000, 'Negative');
    // The Workshop's alarm in force every day, all day (closed whenever due_by falls); a corridor on the way.
    await zone('mv2-workshop', 'Workshop', at(1400, 0), 40, 'Positive', { schedule: [{ days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '00:00' }] });
    await zone('mv2-corridor', 'Corridor', at(1200, 0), 40);
    await zone('mv2-yard', 'Yard', at(1000, 90), 40, 'Positive', { alert_type: 'Informational' });
    await zone('mv2-curfew', 'Wing B curfew', at(1000, 0), 60, 'Negative', { alert_type: 'Informational', applies_to: { blocks: ['MV2'] } });
    const [arben, other] = [await addPrisoner(ctx(), 'Arben', 'Gashi'), await addPrisoner(ctx(), 'Otto', 'Control')];
    const [da, dother] = [await addDevice(ctx(), { prisoner_id: arben.id }), await addDevice(ctx(), { prisoner_id: other.id })];
    await fix(da.id, at(1000, 0));
    await fix(dother.id, at(1000, 0));
    const due = new Date(Date.now() + 600_000).toISOString();
    const body = { prisoner_ids: [arben.id], destination_geofence_id: 'mv2-workshop', via_geofence_ids: ['mv2-corridor'], due_by: due };
    const before = (await ctx().database.db.select().from(movements)).length;
    // Where prisoners are not sent: the perimeter, a curfew zone (both Negative), an Informational zone; the perimeter
    // cannot be a zone on the way either.
    for (const [payload, status, field] of [
      [{ ...body, destination_geofence_id: 'mv2-site', reason: REASON }, 400, 'destination_geofence_id'],
      [{ ...body, destination_geofence_id: 'mv2-curfew', reason: REASON }, 400, 'destination_geofence_id'],
      [{ ...body, destination_geofence_id: 'mv2-yard', reason: REASON }, 400, 'destination_geofence_id'],
      [{ ...body, via_geofence_ids: ['mv2-site'], reason: REASON }, 400, 'via_geofence_ids'],
      // Closed at due_by and no reason.
      [body, 409, 'reason'],
    ] as const) {
      const res = await api('POST', '/movements', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api('POST', '/movements', body)).json().message).toMatch(/^reason: Workshop is closed at \d\d:\d\d \(due_by\)/);
    expect((await ctx().database.db.select().from(movements)).length).toBe(before);

    const started = await api('POST', '/movements', { ...body, reason: 'Urgent repair job, supervised by the instructor' });
    expect(started.statusCode, started.body).toBe(200);
    const movement = started.json().movement as Movement;
    expect(movement).toMatchObject({ closed_reason: 'Urgent repair job, supervised by the instructor', in_force: true, via: [{ geofence_id: 'mv2-corridor', name: 'Corridor' }], ended_at: null, cancelled: false });
    const audit = await ctx().database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'movement'), eq(auditLog.entityId, String(movement.id)))).orderBy(auditLog.id);
    expect(audit[0]!.after).toMatchObject({ closed_reason: 'Urgent repair job, supervised by the instructor' });

    // Through the corridor and into the closed Workshop: arrived, and no alarm of either zone nor off route.
    const everyAlert = (prisonerId: number) => ctx().database.db.select({ details: alerts.details }).from(alerts).where(eq(alerts.prisonerId, prisonerId)).orderBy(alerts.id);
    await fix(da.id, at(1200, 0));
    await fix(da.id, at(1400, 0));
    await waitFor('arrived', async () => (await listed(movement.id)).state === 'arrived');
    await ctx().app.tracking.checkSilence(new Date());
    // The control: the same Workshop alarms for a prisoner nobody sent there.
    await fix(dother.id, at(1400, 0));
    // The zone's dwell (10 s) runs out on the watcher's next tick: on a loaded machine that can take a while.
    await waitFor('the control alarm', async () => (await everyAlert(other.id)).some((a) => a.details === 'Otto Control entered Workshop'), 30_000);
    await fix(da.id, at(1401, 0));
    await ctx().app.tracking.checkSilence(new Date());
    expect((await everyAlert(arben.id)).map((a) => a.details)).toEqual([]);

    // Ended (in one tap): the Workshop alarms for him again, at his next fix there.
    const ended = await api('POST', `/movements/${movement.id}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().movement).toMatchObject({ in_force: false, cancelled: false, ended_by: 'warden' });
    expect((await api('POST', `/movements/${movement.id}/end`)).statusCode).toBe(409);
    await fix(da.id, at(1402, 0));
    await waitFor('the Workshop alarms again', async () => (await everyAlert(arben.id)).some((a) => a.details === 'Arben Gashi entered Workshop'), 30_000);
    const endAudit = await ctx().database.db.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.entity, 'movement'), eq(auditLog.entityId, String(movement.id)))).orderBy(auditLog.id);
    expect(endAudit.map((a) => a.action)).toEqual(['create', 'end']);
  }, 90_000);
});
