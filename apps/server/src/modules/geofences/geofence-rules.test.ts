// Geofences for some prisoners and at some times, through the API (decisions 033 and 034).
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { alerts, cells, geofenceStates, prisoners } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp, writeApproved, type TestContext } from '../../../test/test-app';
import { addDevice, addPrisoner } from '../../tracking/tracking-test-kit';
import { WeekClock } from '../../tracking/geofence-schedule';

let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const circle = (overrides: Record<string, unknown> = {}) => ({
  geofence_id: uniqueId('zone'),
  shape: 'Circle',
  name: 'Workshop',
  type: 'Positive',
  alert_type: 'Warning',
  radius: 120,
  center_lat: 10.5,
  center_lng: 20.5,
  // No dwell: a fix across the boundary counts at once, as these tests expect.
  dwell_seconds: 0,
  ...overrides,
});
const weekdays = [{ days: [5, 1, 2, 3, 4], start: '09:00', end: '17:00' }];

async function cellInBlock(ctx: TestContext, block: string): Promise<string> {
  const cellId = uniqueId(`cell-${block}`);
  await ctx.database.db.insert(cells).values({ cellId, block, capacity: 4, securityLevel: 'Low' });
  return cellId;
}

/** A prisoner in a cell of `block` wearing a tracker; `fix` reports a position at a given time. */
async function wearer(ctx: TestContext, block: string) {
  const prisoner = await addPrisoner(ctx, 'Zed', `Block${block}${++counter}`);
  await ctx.database.db.update(prisoners).set({ cellId: await cellInBlock(ctx, block) }).where(eq(prisoners.prisonerId, prisoner.id));
  const device = await addDevice(ctx, { prisoner_id: prisoner.id });
  const fix = async (latitude: number, longitude: number, at: Date) => {
    const res = await ctx.api('POST', '/ingest/positions', {
      positions: [{ device_id: device.id, secret: device.secret, latitude, longitude, timestamp: at.toISOString() }],
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { prisoner, device, fix };
}

const geofenceAlerts = (ctx: TestContext, deviceId: string, geofenceId: string) =>
  ctx.database.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.deviceId, deviceId), eq(alerts.kind, 'geofence'), eq(alerts.geofenceId, geofenceId)))
    .orderBy(alerts.id);

describeEachEngine('geofence API: who and when', (engine) => {
  const ctx = useTestApp(engine);

  it('stores applies_to and schedule, answers them in add, update and all, and null means everyone, always', async () => {
    const block = uniqueId('B');
    await cellInBlock(ctx(), block);
    const prisoner = await addPrisoner(ctx());
    const input = circle({ applies_to: { blocks: [block, block], prisoner_ids: [prisoner.id] }, schedule: weekdays });
    const res = await ctx().api('POST', '/geofence/add', input);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      geofence_id: input.geofence_id,
      applies_to: { blocks: [block], prisoner_ids: [prisoner.id] },
      schedule: weekdays,
    });
    const listed = (await ctx().api('GET', '/geofence/all')).json<Record<string, unknown>[]>();
    expect(listed.find((g) => g.geofence_id === input.geofence_id)).toEqual(res.json());
    // Others keep today's shape, with the new fields null.
    const plain = await ctx().api('POST', '/geofence/add', circle());
    expect(plain.json()).toMatchObject({ applies_to: null, schedule: null });

    // Other times than before weaken the alarm on weekdays: applied once a second administrator approves (decision 041).
    const updated = await writeApproved(ctx(), 'PUT', `/geofence/update/${input.geofence_id}`, { applies_to: null, schedule: [{ days: [6, 7], start: '22:00', end: '06:00' }] });
    expect(updated.statusCode, updated.body).toBe(200);
    const afterUpdate = (await ctx().api('GET', '/geofence/all')).json<Record<string, unknown>[]>().find((g) => g.geofence_id === input.geofence_id);
    expect(afterUpdate).toMatchObject({ applies_to: null, schedule: [{ days: [6, 7], start: '22:00', end: '06:00' }] });
    const renamed = await ctx().api('PUT', `/geofence/update/${input.geofence_id}`, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', applies_to: null, schedule: [{ days: [6, 7] }] });
    const engineCopy = ctx().app.geofenceEngine.geofences().find((g) => g.geofence_id === input.geofence_id);
    expect(engineCopy?.schedule).toEqual([{ days: [6, 7], start: '22:00', end: '06:00' }]);
  });

  it('refuses bad rules with 400 naming the field, storing nothing', async () => {
    const windows = (n: number) => Array.from({ length: n }, () => ({ days: [1], start: '09:00', end: '10:00' }));
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ schedule: [{ days: [8], start: '09:00', end: '17:00' }] }, /^schedule\.0\.days\.0: /],
      [{ schedule: [{ days: [0], start: '09:00', end: '17:00' }] }, /^schedule\.0\.days\.0: /],
      [{ schedule: [{ days: [], start: '09:00', end: '17:00' }] }, /^schedule\.0\.days: must name at least one day/],
      [{ schedule: [{ days: [1, 1], start: '09:00', end: '17:00' }] }, /^schedule\.0\.days: must name each day at most once/],
      [{ schedule: [{ days: [1], start: '25:00', end: '17:00' }] }, /^schedule\.0\.start: must be a time as HH:MM/],
      [{ schedule: [{ days: [1], start: '9:00', end: '17:00' }] }, /^schedule\.0\.start: /],
      [{ schedule: [{ days: [1], start: '09:00', end: '9:00' }] }, /^schedule\.0\.end: must be a time as HH:MM/],
      [{ schedule: [{ days: [1], start: '09:00' }] }, /^schedule\.0\.end: /],
      [{ schedule: [] }, /^schedule: must hold at least one window/],
      [{ schedule: windows(29) }, /^schedule: must hold at most 28 windows/],
      [{ schedule: 'weekdays' }, /^schedule: /],
      [{ applies_to: {} }, /^applies_to: must name at least one block or prisoner/],
      [{ applies_to: { blocks: [] } }, /^applies_to: must name at least one block or prisoner/],
      [{ applies_to: { wings: ['A'] } }, /^applies_to: /],
      [{ applies_to: { blocks: [''] } }, /^applies_to\.blocks\.0: /],
      [{ applies_to: { blocks: ['x'.repeat(51)] } }, /^applies_to\.blocks\.0: must be at most 50 characters/],
      [{ applies_to: { blocks: Array.from({ length: 51 }, (_, i) => `B${i}`) } }, /^applies_to\.blocks: must name at most 50 blocks/],
      [{ applies_to: { prisoner_ids: [1.5] } }, /^applies_to\.prisoner_ids\.0: /],
      [{ applies_to: { prisoner_ids: Array.from({ length: 501 }, (_, i) => i + 1) } }, /^applies_to\.prisoner_ids: must name at most 500/],
      [{ applies_to: { blocks: ['No Such Block'] } }, /^applies_to\.blocks: there is no block No Such Block/],
      [{ applies_to: { prisoner_ids: [2_000_000_000] } }, /^applies_to\.prisoner_ids: there is no prisoner 2000000000/],
    ];
    for (const [overrides, message] of cases) {
      const input = circle(overrides);
      const res = await ctx().api('POST', '/geofence/add', input);
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().message, JSON.stringify(overrides)).toMatch(message);
      const all = (await ctx().api('GET', '/geofence/all')).json<{ geofence_id: string }[]>();
      expect(all.some((g) => g.geofence_id === input.geofence_id)).toBe(false);
    }
    const stored = circle();
    await ctx().api('POST', '/geofence/add', stored);
    const bad = await ctx().api('PUT', `/geofence/update/${stored.geofence_id}`, { schedule: [{ days: [1], start: '09:00', end: '24:01' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^schedule\.0\.end: /);
  });

  it('a zone for a block raises for its prisoners only, and follows a prisoner moved to another block', async () => {
    const blockA = uniqueId('A');
    const blockB = uniqueId('B');
    const inA = await wearer(ctx(), blockA);
    const inB = await wearer(ctx(), blockB);
    // Informational: a move out of a Critical or Warning zone keeps its violation open (decision 091,
    // pending-changes/two-person-trust.test.ts); this one's ends.
    const zone = circle({ alert_type: 'Informational', applies_to: { blocks: [blockA] } });
    expect((await ctx().api('POST', '/geofence/add', zone)).statusCode).toBe(200);
    const t0 = Date.now() - 600_000;
    await inA.fix(10.5, 20.5, new Date(t0));
    await inB.fix(10.5, 20.5, new Date(t0));
    expect(await geofenceAlerts(ctx(), inA.device.id, zone.geofence_id)).toHaveLength(1);
    expect(await geofenceAlerts(ctx(), inB.device.id, zone.geofence_id)).toHaveLength(0);

    // Moved to a cell of block B through /cell_controls/assign: the zone no longer applies; its violation ends.
    const cellB = await cellInBlock(ctx(), blockB);
    // The other tests' Warning zones of everyone hold him in violation too: the move waits for a second person.
    const moved = await writeApproved(ctx(), 'POST', '/cell_controls/assign', { prisoner_id: inA.prisoner.id, cell_id: cellB });
    expect(moved.statusCode, moved.body).toBe(200);
    await expect.poll(() => ctx().app.tracking.registry.get(inA.device.id)?.block).toBe(blockB);
    await inA.fix(10.5, 20.5, new Date(t0 + 1000));
    const [alert] = await geofenceAlerts(ctx(), inA.device.id, zone.geofence_id);
    expect(alert!.endedAt?.toISOString()).toBe(new Date(t0 + 1000).toISOString());
  });

  it('a zone for one prisoner raises for that prisoner only', async () => {
    const block = uniqueId('C');
    const one = await wearer(ctx(), block);
    const other = await wearer(ctx(), block);
    const zone = circle({ center_lat: 11, center_lng: 21, applies_to: { prisoner_ids: [one.prisoner.id] } });
    expect((await ctx().api('POST', '/geofence/add', zone)).statusCode).toBe(200);
    const t0 = Date.now() - 500_000;
    await one.fix(11, 21, new Date(t0));
    await other.fix(11, 21, new Date(t0));
    expect(await geofenceAlerts(ctx(), one.device.id, zone.geofence_id)).toHaveLength(1);
    expect(await geofenceAlerts(ctx(), other.device.id, zone.geofence_id)).toHaveLength(0);
  });

  it('a violation open when the window closes ends at the closing time, stored like other ends', async () => {
    // A daily window from 30 minutes ago to 10 minutes from now, in the server's TZ.
    const clock = new WeekClock(ctx().app.config.TZ);
    const now = Date.now();
    const minuteOfDay = clock.minuteOfWeek(now) % 1440;
    const hhmm = (m: number) => {
      const v = ((m % 1440) + 1440) % 1440;
      return `${String(Math.floor(v / 60)).padStart(2, '0')}:${String(v % 60).padStart(2, '0')}`;
    };
    const zone = circle({
      center_lat: 12,
      center_lng: 22,
      schedule: [{ days: [1, 2, 3, 4, 5, 6, 7], start: hhmm(minuteOfDay - 30), end: hhmm(minuteOfDay + 10) }],
    });
    expect((await ctx().api('POST', '/geofence/add', zone)).statusCode).toBe(200);
    const w = await wearer(ctx(), uniqueId('D'));
    await w.fix(12, 22, new Date(now - 60_000));
    const [open] = await geofenceAlerts(ctx(), w.device.id, zone.geofence_id);
    expect(open?.endedAt).toBeNull();

    const closesAt = Math.floor(now / 60_000) * 60_000 + 10 * 60_000;
    await ctx().app.tracking.checkSilence(new Date(closesAt + 3000));
    const [closed] = await geofenceAlerts(ctx(), w.device.id, zone.geofence_id);
    expect(closed!.endedAt?.toISOString()).toBe(new Date(closesAt).toISOString());
    const [state] = await ctx()
      .database.db.select()
      .from(geofenceStates)
      .where(and(eq(geofenceStates.deviceId, w.device.id), eq(geofenceStates.geofenceId, zone.geofence_id)));
    expect(state?.violating).toBe(false);
  });
});

describe('TZ configuration', () => {
  it('takes a time zone name and refuses an unknown one', async () => {
    const { loadConfig } = await import('../../config');
    expect(loadConfig({ TZ: 'Europe/London' }).TZ).toBe('Europe/London');
    expect(loadConfig({}).TZ).toBeTruthy();
    expect(() => loadConfig({ TZ: 'Mars/Olympus' })).toThrow(/TZ must be a time zone name like Europe\/London or UTC \(got .Mars\/Olympus.\)/);
  });
});
