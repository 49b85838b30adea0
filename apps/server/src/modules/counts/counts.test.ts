// Block areas and roll counts on a real app: fixes arrive through the OsmAnd protocol on its own
// port, the count reads where each tracker is, and the officer's number decides clear or discrepancy. Also the 400s
// naming the field, the audit entries, the caseload, and the scheduled counts' reminder and one Warning per time.
import { describe, expect, it, beforeAll } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { API_PREFIX, type CountDueEvent, type CountRecord, type GeoPoint } from '@prison/shared';
import { alerts, auditLog, cells, devices, prisoners, rollCounts } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../lib/audit';
import { addDevice, osmandGet, useListeningApp } from '../../tracking/tracking-test-kit';
import { loginWithCaseload } from '../../../test/caseload-accounts';
import { describeEachEngine } from '../../../test/test-db';
import { waitFor } from '../../../test/wait-for';
import { createGeofence } from '../geofences/geofence-service';
import { CountScheduler, overdueMessage } from './count-scheduler';

const BLOCK_A = 'Count A';
const BLOCK_B = 'Count B';
// Two squares of about 110 m side, side by side, and an exercise yard (a circle of 40 m) well away from both.
const LAT = 51.5;
const LNG = -0.12;
const square = (lat: number, lng: number): GeoPoint[] => [
  { lat, lng },
  { lat, lng: lng + 0.0016 },
  { lat: lat + 0.001, lng: lng + 0.0016 },
  { lat: lat + 0.001, lng },
];
const IN_A = { lat: LAT + 0.0005, lng: LNG + 0.0008 };
const IN_B = { lat: LAT + 0.0005, lng: LNG + 0.0038 };
const YARD = { lat: LAT - 0.003, lng: LNG + 0.0008 };

describeEachEngine('block areas and roll counts', (engine) => {
  const ctx = useListeningApp(engine, { COUNT_TIMES: [] });
  let seq = 0;

  async function prisonerIn(block: string, name: string): Promise<number> {
    const [row] = await ctx()
      .database.db.insert(prisoners)
      .values({ firstName: name, lastName: `Counted${++seq}`, status: 'Incarcerated', cellId: `${block}-1` })
      .returning({ id: prisoners.prisonerId });
    return row!.id;
  }

  /** A tracker worn by the prisoner, reporting here through the OsmAnd port; waits until it is stored. */
  async function fixAt(prisonerId: number, at: { lat: number; lng: number }, secondsAgo = 0): Promise<string> {
    const device = await addDevice(ctx(), { prisoner_id: prisonerId });
    const timestamp = Math.floor(Date.now() / 1000) - secondsAgo;
    const sent = await osmandGet(ctx().osmandUrl, { id: device.id, key: device.secret, lat: at.lat, lon: at.lng, timestamp });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await waitFor(`the fix of ${device.id}`, async () => {
      const [row] = await ctx().database.db.select({ at: devices.lastFixAt }).from(devices).where(eq(devices.id, device.id));
      return row?.at != null;
    });
    return device.id;
  }

  async function ok<T>(method: string, url: string, payload?: unknown): Promise<T> {
    const res = await ctx().api(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json<T>();
  }

  const audited = (action: string, entityId: string | number) =>
    ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(entityId)))).orderBy(auditLog.id);

  beforeAll(async () => {
    const { db } = ctx().database;
    await db.insert(cells).values([
      { cellId: `${BLOCK_A}-1`, block: BLOCK_A, capacity: 50, securityLevel: 'Low' },
      { cellId: `${BLOCK_B}-1`, block: BLOCK_B, capacity: 50, securityLevel: 'Low' },
    ]);
    await createGeofence(db, SYSTEM_ACTOR, {
      geofence_id: 'count-yard',
      name: 'Exercise Yard',
      shape: 'Circle',
      type: 'Positive',
      alert_type: 'Informational',
      radius: 40,
      center_lat: YARD.lat,
      center_lng: YARD.lng,
      dwell_seconds: 0,
      buffer_meters: 0,
      applies_to: null,
      schedule: null,
    });
    await ok('PUT', `/blocks/${encodeURIComponent(BLOCK_A)}/area`, { points: square(LAT, LNG) });
    await ok('PUT', `/blocks/${encodeURIComponent(BLOCK_B)}/area`, { points: square(LAT, LNG + 0.003) });
  });

  describe('block areas', () => {
    it('are listed for the map, and each write is audited', async () => {
      const { data } = await ok<{ data: { block: string; points: GeoPoint[] }[] }>('GET', '/blocks/areas');
      expect(data.map((area) => area.block)).toEqual(expect.arrayContaining([BLOCK_A, BLOCK_B]));
      expect(data.find((area) => area.block === BLOCK_A)!.points).toEqual(square(LAT, LNG));
      expect(await audited('create', BLOCK_A)).toHaveLength(1);
    });

    it('refuses a crossing polygon, too few points and bad coordinates naming points; an unknown block is 404', async () => {
      const url = `/blocks/${encodeURIComponent(BLOCK_A)}/area`;
      const [a, b, c, d] = square(LAT, LNG);
      for (const [points, message] of [
        [[a, c, b, d], /^points: /],
        [[a, b], /^points/],
        [[a, b, { lat: 91, lng: 0 }], /^points/],
        ['many', /^points/],
      ] as const) {
        const res = await ctx().api('PUT', url, { points });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().message).toMatch(message);
      }
      const { data } = await ok<{ data: { block: string; points: GeoPoint[] }[] }>('GET', '/blocks/areas');
      expect(data.find((area) => area.block === BLOCK_A)!.points).toEqual(square(LAT, LNG));
      const unknown = await ctx().api('PUT', '/blocks/Nowhere/area', { points: square(LAT, LNG) });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'Block Nowhere not found' });
    });
  });

  describe('roll counts with real fixes', () => {
    let inCell: number;
    let inYard: number;
    let offline: number;
    let untracked: number;

    beforeAll(async () => {
      inCell = await prisonerIn(BLOCK_A, 'Ada');
      inYard = await prisonerIn(BLOCK_A, 'Yardley');
      offline = await prisonerIn(BLOCK_A, 'Olly');
      untracked = await prisonerIn(BLOCK_A, 'Una');
      await fixAt(inCell, IN_A);
      await fixAt(inYard, YARD);
      // Older than DEVICE_OFFLINE_SECONDS: where it was then says nothing about now.
      await fixAt(offline, IN_A, ctx().app.config.DEVICE_OFFLINE_SECONDS + 120);
    });

    it('the trackers advise (in block, elsewhere with where, offline, untracked) but never overrule the officer', async () => {
      const started = await ok<CountRecord>('POST', '/counts', { block_id: BLOCK_A });
      expect(started).toMatchObject({ block_id: BLOCK_A, expected: 4, located: 1, state: 'open', counted: null, seen: null, submissions: [] });
      const state = (id: number) => started.lines.find((line) => line.prisoner_id === id);
      // Who is who on the sheet (decision 101): each line carries his prison number, read when the count started.
      const [{ number }] = (await ctx().database.db.select({ number: prisoners.prisonNumber }).from(prisoners).where(eq(prisoners.prisonerId, inCell))) as [{ number: string }];
      expect(state(inCell)).toMatchObject({ prison_number: number, photo_digest: null, flags: [] });
      expect(state(inCell)).toMatchObject({ state: 'in_block', where: `Block ${BLOCK_A}` });
      expect(state(inYard)).toMatchObject({ state: 'elsewhere', where: 'Exercise Yard' });
      expect(state(offline)).toMatchObject({ state: 'offline' });
      expect(state(untracked)).toMatchObject({ state: 'untracked', device_id: null });

      // All four seen in their cells: clear, whatever the trackers say; the one in the yard is a tracker to check.
      const submitted = await ok<CountRecord>('POST', `/counts/${started.id}/submit`, {
        seen: [inCell, inYard, offline, untracked],
        note: 'All seen at the doors',
      });
      expect(submitted).toMatchObject({ state: 'clear', counted: 4, to_find: [], missing: 0 });
      expect(submitted.tracker_mismatches.map((line) => line.prisoner_id)).toEqual([inYard]);
      expect(submitted.roll).toEqual([{ block: BLOCK_A, expected: 4, seen: 4, out: 0, to_find: 0 }]);

      // A clear count is final: not counted again, nothing to close.
      expect((await ctx().api('POST', `/counts/${started.id}/submit`, { seen: [inCell] })).statusCode).toBe(409);
      expect((await ctx().api('POST', `/counts/${started.id}/close`, { note: 'closing a clear count' })).statusCode).toBe(409);
      for (const body of [{ note: '' }, { note: 'ok' }]) {
        const refused = await ctx().api('POST', `/counts/${started.id}/close`, body);
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().message).toMatch(/^note/);
      }
      for (const action of ['count.start', 'count.submit']) expect(await audited(action, started.id), action).toHaveLength(1);
      const [submitEntry] = await audited('count.submit', started.id);
      expect(submitEntry!.after).toMatchObject({ state: 'clear', expected: 4, counted: 4, seen: [inCell, inYard, offline, untracked] });
      const history = await ok<{ data: CountRecord[] }>('GET', `/counts?block_id=${encodeURIComponent(BLOCK_A)}`);
      expect(history.data[0]).toMatchObject({ id: started.id, state: 'clear', counted: 4 });
    });

    it('a count whose number matches and whose prisoners are all in the block is clear; a wrong number is not', async () => {
      const inB = await prisonerIn(BLOCK_B, 'Bea');
      await fixAt(inB, IN_B);
      const first = await ok<CountRecord>('POST', '/counts', { block_id: BLOCK_B });
      expect(first).toMatchObject({ expected: 1, located: 1 });
      expect((await ok<CountRecord>('POST', `/counts/${first.id}/submit`, { counted: 1 })).state).toBe('clear');
      const closeClear = await ctx().api('POST', `/counts/${first.id}/close`, { note: 'nothing to close here at all' });
      expect(closeClear.statusCode).toBe(409);
      const second = await ok<CountRecord>('POST', '/counts', { block_id: BLOCK_B });
      const wrong = await ok<CountRecord>('POST', `/counts/${second.id}/submit`, { counted: 2 });
      expect(wrong).toMatchObject({ state: 'discrepancy', to_find: [] });
      const latest = await ok<{ data: { block: string; count: CountRecord | null }[] }>('GET', '/counts/latest');
      expect(latest.data.find((row) => row.block === BLOCK_B)!.count).toMatchObject({ id: second.id, state: 'discrepancy' });
    });

    it('the whole prison, asked for by scope "prison": every block with its expected number', async () => {
      const whole = await ok<CountRecord>('POST', '/counts', { scope: 'prison' });
      expect(whole.block_id).toBeNull();
      expect(whole.blocks.map((row) => row.block)).toEqual(expect.arrayContaining([BLOCK_A, BLOCK_B]));
      expect(whole.blocks.find((row) => row.block === BLOCK_A)).toMatchObject({ expected: 4, located: 1 });
      expect(whole.expected).toBe(whole.lines.length);
    });

    it('bad input is 400 naming the field and stores nothing', async () => {
      const before = await ctx().database.db.select().from(rollCounts);
      for (const [url, body, field] of [
        // An empty body starts nothing: the whole prison is asked for in words.
        ['/counts', {}, 'block_id: is required'],
        ['/counts', { scope: 'block' }, 'scope'],
        ['/counts', { scope: 'Prison' }, 'scope'],
        ['/counts', { scope: 'prison', block_id: BLOCK_A }, 'scope'],
        ['/counts', { block_id: '' }, 'block_id'],
        ['/counts', { block_id: 42 }, 'block_id'],
        ['/counts', { block_id: 'x'.repeat(51) }, 'block_id'],
        [`/counts/${before[0]!.id}/submit`, { counted: -1 }, 'counted'],
        [`/counts/${before[0]!.id}/submit`, { counted: 'four' }, 'counted'],
        [`/counts/${before[0]!.id}/submit`, { counted: 1.5 }, 'counted'],
        [`/counts/${before[0]!.id}/submit`, { counted: 1, note: 'x'.repeat(1001) }, 'note'],
      ] as const) {
        const res = await ctx().api('POST', url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json().message).toMatch(new RegExp(`^${field}`));
      }
      expect((await ctx().api('POST', '/counts/abc/submit', { counted: 1 })).statusCode).toBe(400);
      expect((await ctx().api('POST', '/counts', { block_id: 'Nowhere' })).statusCode).toBe(404);
      expect(await ctx().database.db.select().from(rollCounts)).toEqual(before);
    });

    it('an officer counts only the blocks of his caseload', async () => {
      const cookie = await loginWithCaseload(ctx(), [BLOCK_A]);
      const as = (method: string, url: string, payload?: unknown) =>
        ctx().app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: payload as object, headers: { cookie } });
      const own = await as('POST', '/counts', { block_id: BLOCK_A });
      expect(own.statusCode, own.body).toBe(200);
      const other = await as('POST', '/counts', { block_id: BLOCK_B });
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ message: `Block ${BLOCK_B} not found` });
      expect((await as('POST', '/counts', { scope: 'prison' })).statusCode).toBe(403);
      const history = await as('GET', '/counts');
      expect(new Set(history.json<{ data: CountRecord[] }>().data.map((count) => count.block_id))).toEqual(new Set([BLOCK_A]));
      const [ofB] = await ctx().database.db.select().from(rollCounts).where(eq(rollCounts.block, BLOCK_B));
      const hidden = await as('POST', `/counts/${ofB!.id}/submit`, { counted: 1 });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toEqual({ message: `Count ${ofB!.id} not found` });
      expect((await as('GET', `/counts/${ofB!.id}`)).statusCode).toBe(404);
      expect((await as('GET', '/blocks/areas')).json<{ data: { block: string }[] }>().data.map((a) => a.block)).toEqual([BLOCK_A]);
    });
  });

  describe('a count is what the officers see (seven prisoners of block C, three trackers elsewhere)', () => {
    const C = 'Count C';
    const IN_C = { lat: LAT + 0.0035, lng: LNG + 0.0008 };
    let all: number[];
    let home: number[];
    let away: number[];
    let quiet: number;
    let untracked: number;
    const deviceOf = new Map<number, string>();
    const ids = (lines: { prisoner_id: number }[]) => lines.map((line) => line.prisoner_id).sort((a, b) => a - b);
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    const checksOf = (countId: number) =>
      ctx()
        .database.db.select()
        .from(alerts)
        .where(and(eq(alerts.kind, 'roll_count'), eq(alerts.alertType, 'Informational'), like(alerts.details, `%roll count ${countId},%`)));

    beforeAll(async () => {
      await ctx().database.db.insert(cells).values({ cellId: `${C}-1`, block: C, capacity: 50, securityLevel: 'Low' });
      await ok('PUT', `/blocks/${encodeURIComponent(C)}/area`, { points: square(LAT + 0.003, LNG) });
      home = [await prisonerIn(C, 'Cal'), await prisonerIn(C, 'Cy')];
      away = [await prisonerIn(C, 'Yan'), await prisonerIn(C, 'Yves'), await prisonerIn(C, 'Bo')];
      quiet = await prisonerIn(C, 'Quinn');
      untracked = await prisonerIn(C, 'Ulla');
      for (const id of home) deviceOf.set(id, await fixAt(id, IN_C));
      deviceOf.set(away[0]!, await fixAt(away[0]!, YARD));
      deviceOf.set(away[1]!, await fixAt(away[1]!, YARD));
      deviceOf.set(away[2]!, await fixAt(away[2]!, IN_B));
      deviceOf.set(quiet, await fixAt(quiet, IN_C, ctx().app.config.DEVICE_OFFLINE_SECONDS + 120));
      all = [...home, ...away, quiet, untracked];
    });

    it('everyone seen is clear even with three trackers elsewhere: they come back as tracker mismatches, one device check each', async () => {
      const count = await ok<CountRecord>('POST', '/counts', { block_id: C });
      expect(count).toMatchObject({ expected: 7, located: 2 });
      const clear = await ok<CountRecord>('POST', `/counts/${count.id}/submit`, { seen: all });
      expect(clear).toMatchObject({ state: 'clear', counted: 7, to_find: [], missing: 0 });
      expect(ids(clear.tracker_mismatches)).toEqual(sorted(away));
      expect(clear.tracker_mismatches.find((line) => line.prisoner_id === away[2])!.where).toBe(`Block ${BLOCK_B}`);
      const checks = await checksOf(count.id);
      expect(checks.map((alert) => alert.deviceId).sort()).toEqual(away.map((id) => deviceOf.get(id)).sort());
      expect(checks.map((alert) => alert.prisonerId).sort((a, b) => a! - b!)).toEqual(sorted(away));
      expect(checks[0]!.details).toMatch(/^Device check: .+ was seen in his cell Count C-1 at roll count \d+, but his tracker /);
    });

    it('two not seen: to_find is exactly those two; a note alone does not close it, a recount that agrees does (both kept)', async () => {
      const count = await ok<CountRecord>('POST', '/counts', { block_id: C });
      const notSeen = [home[0]!, untracked];
      const short = await ok<CountRecord>('POST', `/counts/${count.id}/submit`, { seen: all.filter((id) => !notSeen.includes(id)) });
      expect(short).toMatchObject({ state: 'discrepancy', counted: 5, missing: 2 });
      expect(ids(short.to_find)).toEqual(sorted(notSeen));
      expect(short.roll).toEqual([{ block: C, expected: 7, seen: 5, out: 0, to_find: 2 }]);
      // The trackers elsewhere do not make anyone "to find": only those not seen are.
      expect(ids(short.tracker_mismatches)).toEqual(sorted(away));

      for (const body of [{ note: 'Everyone found on the landing later on' }, {}, { accounts: [] }]) {
        const refused = await ctx().api('POST', `/counts/${count.id}/close`, body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(409);
        expect(refused.json().message).toMatch(/recount until it agrees, or account for each prisoner not seen \(.+\)$/);
        for (const name of ['Cal ', 'Ulla ']) expect(refused.json().message).toContain(name);
      }
      expect((await ok<CountRecord>('GET', `/counts/${count.id}`)).state).toBe('discrepancy');

      const recount = await ok<CountRecord>('POST', `/counts/${count.id}/submit`, { seen: all, note: 'Recounted door by door' });
      expect(recount).toMatchObject({ state: 'clear', counted: 7, to_find: [], missing: 0, seen: all });
      expect(recount.submissions.map((s) => [s.state, s.counted, s.by])).toEqual([
        ['discrepancy', 5, 'warden'],
        ['clear', 7, 'warden'],
      ]);
      expect((await ctx().api('POST', `/counts/${count.id}/submit`, { seen: all })).statusCode).toBe(409);
      // One device check per tracker and count, however many times it is counted.
      expect(await checksOf(count.id)).toHaveLength(3);
      expect(await audited('count.submit', count.id)).toHaveLength(1);
      expect(await audited('count.recount', count.id)).toHaveLength(1);
    });

    it('a discrepancy closes by accounting for each prisoner not seen with a reason; one left out is 409 naming him', async () => {
      const count = await ok<CountRecord>('POST', '/counts', { block_id: C });
      const [toCourt, toHealth] = [away[0]!, quiet];
      await ok<CountRecord>('POST', `/counts/${count.id}/submit`, { seen: all.filter((id) => id !== toCourt && id !== toHealth) });
      const url = `/counts/${count.id}/close`;

      const leftOut = await ctx().api('POST', url, { accounts: [{ prisoner_id: toCourt, reason: 'court' }] });
      expect(leftOut.statusCode, leftOut.body).toBe(409);
      const quinn = count.lines.find((line) => line.prisoner_id === toHealth)!.name;
      expect(leftOut.json().message).toBe(`accounts: ${quinn} (${toHealth}) not seen and not accounted for`);
      for (const [accounts, field] of [
        [[{ prisoner_id: toCourt, reason: 'pub' }, { prisoner_id: toHealth, reason: 'healthcare' }], 'accounts.0.reason'],
        [[{ prisoner_id: toCourt, reason: 'court' }, { prisoner_id: toHealth, reason: 'other' }], 'accounts.1.note'],
        [[{ prisoner_id: toCourt, reason: 'court' }, { prisoner_id: home[0], reason: 'visits' }], 'accounts.1.prisoner_id'],
        [[{ prisoner_id: toCourt, reason: 'court' }, { prisoner_id: toCourt, reason: 'visits' }], 'accounts.1.prisoner_id'],
      ] as const) {
        const refused = await ctx().api('POST', url, { accounts });
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}`));
      }
      expect((await ok<CountRecord>('GET', `/counts/${count.id}`)).state).toBe('discrepancy');

      const closed = await ok<CountRecord>('POST', url, {
        accounts: [
          { prisoner_id: toCourt, reason: 'court', note: 'Crown court, back at six' },
          { prisoner_id: toHealth, reason: 'healthcare' },
        ],
      });
      expect(closed).toMatchObject({ state: 'closed', closed_by: 'warden', to_find: [], missing: 0 });
      expect(closed.accounts.map((a) => [a.prisoner_id, a.reason, a.note])).toEqual([
        [toCourt, 'court', 'Crown court, back at six'],
        [toHealth, 'healthcare', null],
      ]);
      expect(closed.roll).toEqual([{ block: C, expected: 7, seen: 5, out: 2, to_find: 0 }]);
      const [entry] = await audited('count.close', count.id);
      expect(entry!.after).toMatchObject({ state: 'closed', accounts: [{ prisoner_id: toCourt, reason: 'Court' }, { prisoner_id: toHealth, reason: 'Healthcare' }] });
      const latest = await ok<{ data: { block: string; count: CountRecord | null }[] }>('GET', '/counts/latest');
      expect(latest.data.find((row) => row.block === C)!.count!.roll[0]).toMatchObject({ out: 2, to_find: 0 });
    });

    it('a typed number equal to the roll is clear; one short names nobody: the count asks for a recount cell by cell', async () => {
      const first = await ok<CountRecord>('POST', '/counts', { block_id: C });
      const typedClear = await ok<CountRecord>('POST', `/counts/${first.id}/submit`, { counted: 7 });
      expect(typedClear).toMatchObject({ state: 'clear', seen: null, missing: 0 });
      expect(ids(typedClear.tracker_mismatches)).toEqual(sorted(away));

      const second = await ok<CountRecord>('POST', '/counts', { block_id: C });
      const typedShort = await ok<CountRecord>('POST', `/counts/${second.id}/submit`, { counted: 5 });
      expect(typedShort).toMatchObject({ state: 'discrepancy', seen: null, to_find: [], missing: 2, tracker_mismatches: [] });
      expect(typedShort.roll).toEqual([{ block: C, expected: 7, seen: 5, out: 0, to_find: 2 }]);
      const refused = await ctx().api('POST', `/counts/${second.id}/close`, { accounts: [{ prisoner_id: home[0], reason: 'court' }] });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/recount it cell by cell/);
      const named = await ok<CountRecord>('POST', `/counts/${second.id}/submit`, { seen: all.filter((id) => id !== untracked) });
      expect(named).toMatchObject({ state: 'discrepancy', missing: 1 });
      expect(ids(named.to_find)).toEqual([untracked]);
    });

    it('bad submits are 400 naming the field and change nothing', async () => {
      const count = await ok<CountRecord>('POST', '/counts', { block_id: C });
      const stranger = await prisonerIn(BLOCK_B, 'Stranger');
      for (const [body, field] of [
        [{}, 'seen: is required'],
        [{ seen: all, counted: 7 }, 'counted'],
        [{ seen: 'all' }, 'seen'],
        [{ seen: [0] }, 'seen'],
        [{ seen: [1.5] }, 'seen'],
        [{ seen: [...all, stranger] }, `seen: prisoner ${stranger} is not on the roll`],
      ] as const) {
        const res = await ctx().api('POST', `/counts/${count.id}/submit`, body);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(res.json().message).toMatch(new RegExp(`^${field}`));
      }
      expect(await ok<CountRecord>('GET', `/counts/${count.id}`)).toMatchObject({ state: 'open', submissions: [] });
    });

    it('an officer of block A can neither read nor submit nor close block C\'s count', async () => {
      const count = await ok<CountRecord>('POST', '/counts', { block_id: C });
      await ok<CountRecord>('POST', `/counts/${count.id}/submit`, { seen: [home[0]] });
      const cookie = await loginWithCaseload(ctx(), [BLOCK_A]);
      const as = (method: string, url: string, payload?: unknown) =>
        ctx().app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: payload as object, headers: { cookie } });
      expect((await as('GET', `/counts/${count.id}`)).statusCode).toBe(404);
      expect((await as('POST', `/counts/${count.id}/submit`, { seen: all })).statusCode).toBe(404);
      const close = await as('POST', `/counts/${count.id}/close`, { accounts: all.slice(1).map((id) => ({ prisoner_id: id, reason: 'court' })) });
      expect(close.statusCode).toBe(404);
      expect(close.json()).toEqual({ message: `Count ${count.id} not found` });
      expect((await ok<CountRecord>('GET', `/counts/${count.id}`)).submissions).toHaveLength(1);
    });
  });

  describe('scheduled counts', () => {
    // A day far ahead, so no count submitted by the other tests is "since" its time.
    const EIGHT = Date.parse('2031-03-05T08:00:00Z');

    function scheduler(clock: { now: number }, leader = true) {
      const reminders: CountDueEvent[] = [];
      const shown: string[] = [];
      const job = new CountScheduler({
        db: ctx().database.db,
        times: ['08:00', '21:00'],
        timeZone: 'UTC',
        now: () => new Date(clock.now),
        isLeader: () => leader,
        remind: (due) => reminders.push(due),
        raised: async (events) => void shown.push(...events.map((event) => event.message)),
      });
      return { job, reminders, shown };
    }

    const warningsOf = (block: string) =>
      ctx()
        .database.db.select()
        .from(alerts)
        .where(and(eq(alerts.kind, 'roll_count'), eq(alerts.details, overdueMessage(block, '08:00'))));

    it('reminds each block at the time, and 15 minutes later raises one Warning per block not counted, once', async () => {
      const clock = { now: EIGHT - 60_000 };
      const first = scheduler(clock);
      const second = scheduler(clock); // another process, leader too (as after a failover): the row decides
      const follower = scheduler(clock, false);
      // Block B was counted (submitted) at 08:05: no Warning for it.
      await ctx().database.db.insert(rollCounts).values({
        block: BLOCK_B,
        startedAt: new Date(EIGHT + 240_000),
        startedBy: 'test',
        expected: 0,
        located: 0,
        blocks: [],
        lines: [],
        state: 'clear',
        counted: 0,
        submittedAt: new Date(EIGHT + 300_000),
        submittedBy: 'test',
      });
      await first.job.tick();
      expect(first.reminders).toEqual([]);
      clock.now = EIGHT + 30_000;
      await first.job.tick();
      await first.job.tick();
      expect(first.reminders.filter((due) => due.block === BLOCK_A)).toEqual([
        { block: BLOCK_A, time: '08:00', message: `Roll count of block ${BLOCK_A} due at 08:00` },
      ]);
      clock.now = EIGHT + 14 * 60_000;
      await first.job.tick();
      expect(await warningsOf(BLOCK_A)).toHaveLength(0);
      clock.now = EIGHT + 16 * 60_000;
      await Promise.all([first.job.tick(), second.job.tick(), follower.job.tick()]);
      await first.job.tick();
      await second.job.tick();
      const warnings = await warningsOf(BLOCK_A);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ alertType: 'Warning', prisonerId: null });
      expect([...first.shown, ...second.shown].filter((m) => m === overdueMessage(BLOCK_A, '08:00'))).toHaveLength(1);
      expect(follower.shown).toEqual([]);
      expect(follower.reminders).toEqual([]);
      expect(await warningsOf(BLOCK_B)).toHaveLength(0);
    });
  });
});
