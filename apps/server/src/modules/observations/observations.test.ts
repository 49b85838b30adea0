// Observation checks (decision 063), on the real app with real OsmAnd fixes: levels with a reason,
// checks with what was seen, corrections as new entries, no edit or delete route, the due list of a block, verified by
// position (officer's tracker within 10 m), the control room marked, the hash chain finding a changed row, and the
// overdue watcher raising exactly one Warning and then one Critical for a high prisoner, ended by the next check.
// Everyone in custody is on the schedule (decision 099): a fresh block's prisoners are all due within the first
// interval, staggered, and the never-checked go overdue; one-tap entries on standard observation, verified by position.
import { expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { API_PREFIX, destinationPoint, type ObservationCheck, type ObservationDueResponse } from '@prison/shared';
import { admins, alerts, auditLog, cells, observationChecks, observationLevels, prisonerFlags, prisoners } from '../../db/schema';
import { addDevice, addPrisoner, addStaff, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { loginWithCaseload } from '../../../test/caseload-accounts';
import { describeEachEngine } from '../../../test/test-db';
import { intervalsFrom } from './observation-schedule';
import { createOverdueWatcher } from './overdue-watcher';

const BLOCK = 'Obs Wing';
const LAT = 51.5;
const LNG = -0.12;
const MINUTE = 60_000;

describeEachEngine('observation checks', (engine) => {
  const ctx = useListeningApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);
  let cellSeq = 0;

  async function prisonerInBlock(first = 'Olly', last = `Watch${++cellSeq}`, block = BLOCK): Promise<{ id: number; cell: string; name: string }> {
    const cell = `OBS-${++cellSeq}`;
    await ctx().database.db.insert(cells).values({ cellId: cell, block, capacity: 2, securityLevel: 'Low' });
    const prisoner = await addPrisoner(ctx(), first, last);
    await ctx().database.db.update(prisoners).set({ cellId: cell }).where(eq(prisoners.prisonerId, prisoner.id));
    return { id: prisoner.id, cell, name: prisoner.name };
  }

  /** An account of this role whose staff record wears a tracker: its cookie and the tracker. */
  async function officerWithTracker(role: 'officer' | 'operator' = 'officer', kind: 'phone' | 'tag' = 'phone', blocks = [BLOCK]) {
    const member = await addStaff(ctx(), 'Nina', `Round${++cellSeq}`);
    const tracker = await addDevice(ctx(), { staff_id: member.id, kind });
    const cookie = await loginWithCaseload(ctx(), blocks, role);
    // The account just made is the newest; an administrator links it to its staff record through the accounts API.
    const [newest] = await ctx().database.db.select({ id: admins.id }).from(admins).orderBy(desc(admins.id)).limit(1);
    expect((await api('PUT', `/admins/${newest!.id}`, { staff_id: 987654 })).json().message).toMatch(/^staff_id: /);
    const linked = await api('PUT', `/admins/${newest!.id}`, { staff_id: member.id });
    expect(linked.statusCode, linked.body).toBe(200);
    const as = (method: string, url: string, payload?: unknown) =>
      ctx().app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: payload as Record<string, unknown>, headers: { cookie } });
    return { member, tracker, as };
  }

  // Each fix a second later than the one before (a fix of the same second is a repeat), and recent (not offline).
  let fixSecond = 0;
  async function fix(deviceId: string, lat: number, lng: number) {
    fixSecond = Math.max(fixSecond + 1, Math.floor(Date.now() / 1000) - 20);
    const res = await osmandGet(ctx().osmandUrl, { id: deviceId, lat, lon: lng, timestamp: fixSecond });
    expect(res.status).toBe(200);
  }

  const check = (body: unknown) => api('POST', '/observations', body);

  it('sets levels with a reason (audited), records checks and corrections as new entries, and lists the block due; bad input is a 400 naming the field', async () => {
    const prisoner = await prisonerInBlock();
    const set = await api('PUT', `/prisoners/${prisoner.id}/observation`, { level: 'enhanced', reason: 'Low mood after a court date' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().observation).toMatchObject({ level: 'enhanced', interval_minutes: 30, interval_overridden: false, last_check_at: null, overdue: false });
    // Staggered: within the last third of the 30 minutes.
    const firstDue = Date.parse(set.json().observation.due_at);
    expect(firstDue - Date.now()).toBeGreaterThan(19 * MINUTE);
    expect(firstDue - Date.now()).toBeLessThanOrEqual(30 * MINUTE);

    for (const [url, body, field] of [
      [`/prisoners/${prisoner.id}/observation`, { level: 'sometimes', reason: 'Low mood after a court date' }, 'level'],
      [`/prisoners/${prisoner.id}/observation`, { level: 'high', interval_minutes: 0, reason: 'Low mood after a court date' }, 'interval_minutes'],
      [`/prisoners/${prisoner.id}/observation`, { level: 'high', interval_minutes: 1441, reason: 'Low mood after a court date' }, 'interval_minutes'],
      [`/prisoners/${prisoner.id}/observation`, { level: 'high' }, 'reason'],
    ] as const) {
      const res = await api('PUT', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }
    for (const [body, field] of [
      [{ prisoner_id: prisoner.id }, 'observed'],
      [{ prisoner_id: prisoner.id, observed: 'asleep' }, 'observed'],
      [{ prisoner_id: prisoner.id, observed: '   ' }, 'observed'],
      [{ observed: 'asleep breathing normally' }, 'prisoner_id'],
      [{ prisoner_id: 987654, observed: 'asleep breathing normally' }, 'prisoner_id'],
      [{ prisoner_id: prisoner.id, observed: 'asleep breathing normally', corrects_id: 987654 }, 'corrects_id'],
    ] as const) {
      const res = await check(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }
    expect((await api('PUT', '/prisoners/987654/observation', { level: 'high', reason: 'Low mood after a court date' })).statusCode).toBe(404);
    expect(await ctx().database.db.select().from(observationChecks).where(eq(observationChecks.prisonerId, prisoner.id))).toEqual([]);

    const first = await check({ prisoner_id: prisoner.id, observed: 'Asleep on his bed, breathing normally' });
    expect(first.statusCode, first.body).toBe(201);
    const recorded = first.json().check as ObservationCheck;
    // The warden has no staff record linked: no tracker to judge by.
    expect(recorded).toMatchObject({ level: 'enhanced', interval_minutes: 30, method: 'no_tracker', verified_by_position: false, checked_by: 'warden', corrects_id: null });
    const corrected = await check({ prisoner_id: prisoner.id, observed: 'Awake and reading, breathing normally', corrects_id: recorded.id });
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(corrected.json().check).toMatchObject({ corrects_id: recorded.id, due_at: null });
    // A correction moves no due time; the original entry stays as it was.
    expect(corrected.json().observation.due_at).toBe(recorded.due_at);
    const history = (await api('GET', `/prisoners/${prisoner.id}/observation`)).json();
    expect(history.checks.map((c: ObservationCheck) => c.id)).toEqual([corrected.json().check.id, recorded.id]);
    expect(history.checks[1].observed).toBe('Asleep on his bed, breathing normally');
    // A correction names a check of the same prisoner only.
    const other = await prisonerInBlock();
    expect((await check({ prisoner_id: other.id, observed: 'Sitting at the table quietly', corrects_id: recorded.id })).json().message).toMatch(/^corrects_id: /);

    // Checks are never edited or deleted: no route does it.
    const writes = ctx().app.registeredRoutes.filter((r) => r.url.includes('observation') && ['PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(writes.map((r) => `${r.method} ${r.url}`)).toEqual(['PUT /api/v1/prisoners/:id/observation']);

    // Who is who on the round (decision 101): his prison number, photo (none) and flags in force beside the name.
    const db = ctx().database.db;
    await db.insert(prisonerFlags).values({ prisonerId: prisoner.id, kind: 'self_harm', setBy: 'warden' });
    const [{ number }] = (await db.select({ number: prisoners.prisonNumber }).from(prisoners).where(eq(prisoners.prisonerId, prisoner.id))) as [{ number: string }];
    const due = (await api('GET', `/observations/due?block_id=${encodeURIComponent(BLOCK)}`)).json() as ObservationDueResponse;
    const row = due.data.find((d) => d.prisoner_id === prisoner.id)!;
    expect(row).toMatchObject({ prison_number: number, photo_digest: null, flags: ['self_harm'] });
    expect(row).toMatchObject({ cell_id: prisoner.cell, level: 'enhanced', last_check_at: recorded.checked_at, due_at: recorded.due_at, overdue: false, last_check_by: 'warden' });
    // A prisoner with no level and no check: standard, and on the schedule all the same, due within the first hour.
    const never = due.data.find((d) => d.prisoner_id === other.id)!;
    expect(never).toMatchObject({ level: 'standard', interval_minutes: 60, last_check_at: null, overdue: false });
    expect(Date.parse(never.due_at!) - Date.parse(due.now)).toBeLessThanOrEqual(60 * MINUTE);
    expect((await api('GET', '/observations/due')).json().message).toMatch(/^block_id: /);

    const audit = await ctx().database.db.select({ action: auditLog.action, entity: auditLog.entity }).from(auditLog).where(eq(auditLog.entityId, String(prisoner.id))).orderBy(auditLog.id);
    expect(audit).toContainEqual({ action: 'observation.level', entity: 'prisoner' });
    const checkAudit = await ctx().database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entity, 'observation_check')).orderBy(auditLog.id);
    expect(checkAudit.map((a) => a.action)).toEqual(expect.arrayContaining(['create', 'correct']));
  });

  it('judges a check by the officer tracker: within 10 m of the prisoner verified by position, further not; the control room marked so', async () => {
    const prisoner = await prisonerInBlock();
    const wristband = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const officer = await officerWithTracker('officer');
    await fix(wristband.id, LAT, LNG);
    const near = destinationPoint(LAT, LNG, 4, 90);
    await fix(officer.tracker.id, ...near);
    const close = await officer.as('POST', '/observations', { prisoner_id: prisoner.id, observed: 'Standing at the door, talking' });
    expect(close.statusCode, close.body).toBe(201);
    expect(close.json().check).toMatchObject({ method: 'position', verified_by_position: true, staff_id: officer.member.id });
    expect(close.json().check.distance_m).toBeCloseTo(4, 0);

    const far = destinationPoint(LAT, LNG, 60, 90);
    await fix(officer.tracker.id, ...far);
    const away = await officer.as('POST', '/observations', { prisoner_id: prisoner.id, observed: 'Standing at the door, talking' });
    expect(away.json().check).toMatchObject({ method: 'position', verified_by_position: false });
    expect(away.json().check.distance_m).toBeGreaterThan(50);

    const operator = await officerWithTracker('operator');
    await fix(operator.tracker.id, ...near);
    const fromDesk = await operator.as('POST', '/observations', { prisoner_id: prisoner.id, observed: 'Seen on camera, lying down' });
    expect(fromDesk.statusCode, fromDesk.body).toBe(201);
    expect(fromDesk.json().check).toMatchObject({ method: 'control_room', verified_by_position: false });
    expect((await api('GET', `/observations/due?block_id=${encodeURIComponent(BLOCK)}`)).json().data.find((d: { prisoner_id: number }) => d.prisoner_id === prisoner.id)).toMatchObject({ last_verified_by_position: false });
  });

  it("verifies a check by tag indoors: the officer's tag seen by a reader of the prisoner's cell, not by another cell's (issue 25 item 5)", async () => {
    const prisoner = await prisonerInBlock();
    const other = await prisonerInBlock();
    const officer = await officerWithTracker('officer', 'tag');
    const doorway = destinationPoint(LAT, LNG, 30, 0);
    const register = async (id: string, cell: string, at: readonly [number, number]) => {
      const made = await api('POST', '/readers', { id, name: `Door of ${cell}`, lat: at[0], lng: at[1], radius_m: 3, cell_id: cell });
      expect(made.statusCode, made.body).toBe(201);
      return made.json() as { id: string; secret: string };
    };
    const ownDoor = await register(`OBS-R-${prisoner.cell}`, prisoner.cell, doorway);
    const otherDoor = await register(`OBS-R-${other.cell}`, other.cell, destinationPoint(LAT, LNG, 80, 0));
    const seenBy = async (reader: { id: string; secret: string }) => {
      fixSecond = Math.max(fixSecond + 1, Math.floor(Date.now() / 1000) - 20);
      const sighting = await ctx().app.inject({
        method: 'POST',
        url: `${API_PREFIX}/ingest/sightings`,
        payload: { reader_id: reader.id, secret: reader.secret, tags: [{ id: officer.tracker.id, rssi: -55, at: fixSecond * 1000 }] },
      });
      expect(sighting.json(), sighting.body).toEqual({ stored: 1, ignored: 0 });
    };

    // The prisoner wears no tracker: the cell's reader alone places the officer at the door.
    await seenBy(ownDoor);
    const atDoor = await officer.as('POST', '/observations', { prisoner_id: prisoner.id, observed: 'Asleep, breathing, seen through the hatch' });
    expect(atDoor.statusCode, atDoor.body).toBe(201);
    expect(atDoor.json().check).toMatchObject({ method: 'position', verified_by_position: true, distance_m: 0 });

    await seenBy(otherDoor);
    const elsewhere = await officer.as('POST', '/observations', { prisoner_id: prisoner.id, observed: 'Asleep, breathing, seen through the hatch' });
    expect(elsewhere.json().check).toMatchObject({ method: 'position', verified_by_position: false });
  });

  it('raises exactly one Warning at the due time and then one Critical half an interval later for a high prisoner; the next check ends both', async () => {
    const prisoner = await prisonerInBlock('Hal', 'Risk');
    const wristband = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const officer = await officerWithTracker('officer');
    await fix(wristband.id, LAT, LNG);
    await fix(officer.tracker.id, LAT, LNG);
    expect((await api('PUT', `/prisoners/${prisoner.id}/observation`, { level: 'high', reason: 'Self-harm risk assessed today' })).statusCode).toBe(200);
    const made = await officer.as('POST', '/observations', { prisoner_id: prisoner.id, observed: 'Sitting on the bed, calm' });
    expect(made.json().check).toMatchObject({ verified_by_position: true, interval_minutes: 15 });
    const dueAt = Date.parse(made.json().check.due_at);
    expect(dueAt - Date.now()).toBeGreaterThan(9 * MINUTE);

    // A standard prisoner overdue too: a Warning only, never a Critical.
    const calm = await prisonerInBlock('Sam', 'Calm');
    expect((await check({ prisoner_id: calm.id, observed: 'Watching television, relaxed' })).statusCode).toBe(201);

    const watcher = createOverdueWatcher(ctx().app, intervalsFrom(ctx().app.config));
    const ours = async () =>
      ctx()
        .database.db.select({ type: alerts.alertType, details: alerts.details, endedAt: alerts.endedAt, kind: alerts.kind })
        .from(alerts)
        .where(and(eq(alerts.prisonerId, prisoner.id), eq(alerts.kind, 'observation')))
        .orderBy(alerts.id);
    // Only this test's two prisoners: a prisoner of another test in this file may fall due at these simulated times.
    const mine = (raised: { prisonerId?: number | null }[]) => raised.filter((a) => a.prisonerId === prisoner.id || a.prisonerId === calm.id);
    expect(mine(await watcher.tick(new Date(dueAt - 1000)))).toEqual([]);
    const warned = await watcher.tick(new Date(dueAt + 1000));
    expect(warned.filter((a) => a.prisonerId === prisoner.id).map((a) => [a.alert_type, a.message])).toEqual([
      ['warning', `Observation check overdue: Hal Risk, cell ${prisoner.cell}`],
    ]);
    expect(mine(await watcher.tick(new Date(dueAt + 2000)))).toEqual([]);
    expect(await ours()).toHaveLength(1);
    const due = (await api('GET', `/observations/due?block_id=${encodeURIComponent(BLOCK)}`)).json() as ObservationDueResponse;
    expect(due.data[0]!.overdue || Date.parse(due.now) < dueAt).toBe(true);
    // 15 minutes: Critical at 7.5 minutes past due.
    expect(mine(await watcher.tick(new Date(dueAt + 7.5 * MINUTE - 1000)))).toEqual([]);
    const critical = await watcher.tick(new Date(dueAt + 7.5 * MINUTE + 1000));
    expect(critical.filter((a) => a.prisonerId === prisoner.id).map((a) => a.alert_type)).toEqual(['critical']);
    // Past the standard prisoner's due time (at most an hour) too, twice.
    for (const later of [61, 200]) {
      const raised = await watcher.tick(new Date(Date.now() + later * MINUTE));
      expect(raised.filter((a) => a.prisonerId === prisoner.id)).toEqual([]);
    }
    expect((await ours()).map((a) => [a.type, a.details, a.endedAt])).toEqual([
      ['Warning', `Observation check overdue: Hal Risk, cell ${prisoner.cell}`, null],
      ['Critical', `Observation check overdue: Hal Risk, cell ${prisoner.cell}`, null],
    ]);
    const calmAlerts = await ctx().database.db.select({ type: alerts.alertType }).from(alerts).where(eq(alerts.prisonerId, calm.id));
    expect(calmAlerts.map((a) => a.type)).toEqual(['Warning']);

    // The next check ends both (they stay to be worked) and moves the due time: nothing owed.
    const next = await officer.as('POST', '/observations', { prisoner_id: prisoner.id, observed: 'Awake, talking to me, fine' });
    expect(next.statusCode, next.body).toBe(201);
    expect((await ours()).every((a) => a.endedAt !== null)).toBe(true);
    const [state] = await ctx().database.db.select().from(observationLevels).where(eq(observationLevels.prisonerId, prisoner.id));
    expect(state).toMatchObject({ warningAlertId: null, criticalAlertId: null });
    await watcher.stop();
  });

  it('puts everyone in custody on the schedule: a fresh block all due within the first interval, the never-checked overdue in time; one tap on standard only', async () => {
    const fresh = `Fresh Wing ${++cellSeq}`;
    const block = await Promise.all(['Ada', 'Bea', 'Cy', 'Dee'].map((first) => prisonerInBlock(first, 'Fresh', fresh)));
    const released = await prisonerInBlock('Rex', 'Gone', fresh);
    await ctx().database.db.update(prisoners).set({ status: 'Released' }).where(eq(prisoners.prisonerId, released.id));
    const started = Date.now();
    const due = (await api('GET', `/observations/due?block_id=${encodeURIComponent(fresh)}`)).json() as ObservationDueResponse;
    // Every prisoner in custody, none without a due time; the released one is not listed.
    expect(due.data.map((d) => d.prisoner_id).sort()).toEqual(block.map((p) => p.id).sort());
    for (const item of due.data) {
      expect(item).toMatchObject({ level: 'standard', last_check_at: null });
      expect(Date.parse(item.due_at!)).toBeGreaterThanOrEqual(started - 1000);
      expect(Date.parse(item.due_at!)).toBeLessThanOrEqual(started + 60 * MINUTE + 1000);
    }
    // Staggered over the first interval, not all at one moment; listed soonest first.
    expect(new Set(due.data.map((d) => d.due_at)).size).toBeGreaterThan(1);
    const dueTimes = due.data.map((d) => Date.parse(d.due_at!));
    expect([...dueTimes].sort((a, b) => a - b)).toEqual(dueTimes);

    // The overdue watcher: the never-checked one due first goes overdue at his due time, once; the rest by the hour.
    const watcher = createOverdueWatcher(ctx().app, intervalsFrom(ctx().app.config));
    const ids = new Set(block.map((p) => p.id));
    const ours = (raised: { prisonerId?: number | null; alert_type: string }[]) => raised.filter((a) => ids.has(a.prisonerId ?? 0)).map((a) => [a.prisonerId, a.alert_type]);
    const first = due.data[0]!;
    expect(ours(await watcher.tick(new Date(dueTimes[0]! - 1000)))).toEqual([]);
    const overdue = await watcher.tick(new Date(dueTimes[0]! + 1000));
    expect(ours(overdue)).toContainEqual([first.prisoner_id, 'warning']);
    // The toast shows his prison number, not his id (decision 101).
    expect(overdue.find((a) => a.prisonerId === first.prisoner_id)?.prisonNumber).toBe(first.prison_number);
    const byTheHour = ours(await watcher.tick(new Date(started + 60 * MINUTE + 2000)));
    expect(byTheHour).not.toContainEqual([first.prisoner_id, 'warning']);
    const warned = await ctx().database.db.select({ prisonerId: alerts.prisonerId }).from(alerts).where(eq(alerts.kind, 'observation'));
    expect(warned.filter((a) => ids.has(a.prisonerId ?? 0)).map((a) => a.prisonerId).sort()).toEqual(block.map((p) => p.id).sort());
    expect(warned.some((a) => a.prisonerId === released.id)).toBe(false);
    await watcher.stop();

    // One tap on standard observation, by an officer whose tracker is beside the prisoner: verified by position.
    const officer = await officerWithTracker('officer', 'phone', [fresh]);
    const wristband = await addDevice(ctx(), { prisoner_id: block[0]!.id });
    await fix(wristband.id, LAT, LNG);
    await fix(officer.tracker.id, LAT, LNG);
    const seen = await officer.as('POST', '/observations', { prisoner_id: block[0]!.id, quick: 'seen_well' });
    expect(seen.statusCode, seen.body).toBe(201);
    expect(seen.json().check).toMatchObject({ observed: 'Seen, well', method: 'position', verified_by_position: true });
    expect(seen.json().observation.overdue).toBe(false);
    expect((await officer.as('POST', '/observations', { prisoner_id: block[1]!.id, quick: 'asleep_breathing' })).json().check.observed).toBe('Asleep, breathing seen');
    for (const [body, field] of [
      [{ prisoner_id: block[2]!.id, quick: 'not_in_cell' }, 'where'],
      [{ prisoner_id: block[2]!.id, quick: 'seen_well', where: 'Healthcare' }, 'where'],
      [{ prisoner_id: block[2]!.id, quick: 'seen_well', observed: 'Sitting at the table quietly' }, 'observed'],
      [{ prisoner_id: block[2]!.id, quick: 'dancing' }, 'quick'],
    ] as const) {
      const res = await officer.as('POST', '/observations', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }
    const away = await officer.as('POST', '/observations', { prisoner_id: block[2]!.id, quick: 'not_in_cell', where: 'At healthcare with an officer' });
    expect(away.json().check.observed).toBe('Not in cell: At healthcare with an officer');
    // Enhanced, high and constant keep the written observation.
    expect((await api('PUT', `/prisoners/${block[3]!.id}/observation`, { level: 'enhanced', reason: 'Low mood after a court date' })).statusCode).toBe(200);
    const refused = await officer.as('POST', '/observations', { prisoner_id: block[3]!.id, quick: 'seen_well' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^quick: Enhanced observation needs what you saw in words/);
  });

  it('keeps one named officer on a constant watch, each handover recorded', async () => {
    const prisoner = await prisonerInBlock();
    const first = await addStaff(ctx(), 'Ann', 'First');
    const second = await addStaff(ctx(), 'Bob', 'Second');
    expect((await api('POST', `/prisoners/${prisoner.id}/observation/handover`, { staff_id: first.id })).statusCode).toBe(409);
    await api('PUT', `/prisoners/${prisoner.id}/observation`, { level: 'constant', reason: 'Attempted self-harm last night' });
    expect((await api('POST', `/prisoners/${prisoner.id}/observation/handover`, { staff_id: 987654 })).json().message).toMatch(/^staff_id: /);
    const one = await api('POST', `/prisoners/${prisoner.id}/observation/handover`, { staff_id: first.id });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().observation.watcher).toMatchObject({ staff_id: first.id, name: 'Ann First' });
    const two = await api('POST', `/prisoners/${prisoner.id}/observation/handover`, { staff_id: second.id });
    expect(two.json().observation.watcher).toMatchObject({ staff_id: second.id, name: 'Bob Second' });
    const audit = await ctx().database.db.select({ before: auditLog.before, after: auditLog.after }).from(auditLog).where(and(eq(auditLog.action, 'observation.handover'), eq(auditLog.entityId, String(prisoner.id)))).orderBy(auditLog.id);
    expect(audit.map((a) => [(a.before as { staff_id: number | null }).staff_id, (a.after as { staff_id: number }).staff_id])).toEqual([
      [null, first.id],
      [first.id, second.id],
    ]);
  });

  it('finds a check changed or removed after it was recorded (hash chain)', async () => {
    const prisoner = await prisonerInBlock();
    for (const observed of ['Asleep, breathing normally', 'Awake, eating breakfast', 'Reading a book quietly'])
      expect((await check({ prisoner_id: prisoner.id, observed })).statusCode).toBe(201);
    expect((await api('GET', '/observations/verify')).json()).toMatchObject({ ok: true, first_bad_id: null });
    const [middle] = await ctx().database.db.select().from(observationChecks).where(eq(observationChecks.observed, 'Awake, eating breakfast'));
    // Someone with database access rewrites what was seen.
    await ctx().database.db.update(observationChecks).set({ observed: 'Awake, eating breakfast, all fine' }).where(eq(observationChecks.id, middle!.id));
    const verdict = (await api('GET', '/observations/verify')).json();
    expect(verdict).toMatchObject({ ok: false, first_bad_id: middle!.id });
    expect(verdict.problem).toMatch(/changed after it was recorded/);
    await ctx().database.db.update(observationChecks).set({ observed: middle!.observed }).where(eq(observationChecks.id, middle!.id));
    expect((await api('GET', '/observations/verify')).json().ok).toBe(true);
  });
});
