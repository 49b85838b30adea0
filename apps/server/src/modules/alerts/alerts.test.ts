import { expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { AlertPage, AlertRecord, LiveMapPrisonerAlerts, ShowAlertEvent } from '@prison/shared';
import { alerts, auditLog, cells, prisoners } from '../../db/schema';
import { insertAlerts } from './alert-store';
import {
  addDevice,
  addPrisoner,
  browserSocket,
  connected,
  nextEvent,
  useListeningApp,
} from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';

describeEachEngine('alerts API', (engine) => {
  const ctx = useListeningApp(engine);

  it('insertAlerts stores every field as given and answers the ids in the drafts\' order (one statement)', async () => {
    const prisoner = await addPrisoner(ctx(), 'Order', 'Keeper');
    // Not in time order, two at the same millisecond, one naming the nearest staff, one with nobody; years ago, so
    // the other tests' newest alerts stay the newest.
    const at = [Date.UTC(2021, 4, 2, 23, 59, 59, 999), Date.UTC(2021, 4, 1, 0, 0, 0, 1), Date.UTC(2021, 4, 1, 0, 0, 0, 1)];
    const nearbyStaff = [{ device_id: 'dev-n', staff_id: 7, name: 'Officer Near', metres: 12 }];
    const drafts = [
      { alertType: 'Critical' as const, kind: 'sos' as const, details: 'first "quoted" \\ one', at: new Date(at[0]!), deviceId: 'dev-a', prisonerId: null, nearbyStaff },
      { alertType: 'Warning' as const, kind: 'geofence' as const, details: 'second', at: new Date(at[1]!), deviceId: 'dev-b', prisonerId: prisoner.id, geofenceId: 'zone-x' },
      { alertType: 'Informational' as const, kind: 'manual' as const, details: 'third', at: new Date(at[2]!), deviceId: null, prisonerId: null },
    ];
    const stored = await insertAlerts(ctx().database.db, drafts);
    expect(stored.map((a) => a.details)).toEqual(drafts.map((d) => d.details));
    const rows = await ctx().database.db.select().from(alerts).where(inArray(alerts.id, stored.map((a) => a.id)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(stored.map((a) => byId.get(a.id))).toMatchObject([
      { alertType: 'Critical', kind: 'sos', details: 'first "quoted" \\ one', date: '2021-05-02', deviceId: 'dev-a', prisonerId: null, geofenceId: null, nearbyStaff, status: 'New' },
      { alertType: 'Warning', kind: 'geofence', details: 'second', date: '2021-05-01', deviceId: 'dev-b', prisonerId: prisoner.id, geofenceId: 'zone-x', nearbyStaff: null },
      { alertType: 'Informational', kind: 'manual', details: 'third', date: '2021-05-01', deviceId: null, prisonerId: null, nearbyStaff: null },
    ]);
    expect(stored.map((a) => byId.get(a.id)!.timestamp.getTime())).toEqual(at);
  });

  it('POST /alert/all stores an operator alert (SPEC fields), audits it and pushes it live', async () => {
    const prisoner = await addPrisoner(ctx(), 'Jane', 'Roe');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const shown = nextEvent<ShowAlertEvent>(socket, 'showAlert', (a) => a.index === device.id);
      // An alert's time must be within a day of now (decision 010): ten minutes ago, whole seconds.
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 600_000).toISOString();
      const res = await ctx().api('POST', '/alert/all', {
        device_id: device.id,
        alert_type: 'Warning',
        date: at.slice(0, 10),
        timestamp: `${at.slice(0, 10)} ${at.slice(11, 19)}`,
        details: 'Fight in block C',
      });
      expect(res.statusCode).toBe(201);
      const record = res.json<AlertRecord>();
      expect(record).toMatchObject({
        alert_type: 'Warning',
        kind: 'manual',
        details: 'Fight in block C',
        date: at.slice(0, 10),
        timestamp: at,
        device_id: device.id,
        prisoner_id: prisoner.id,
        first_name: 'Jane',
        last_name: 'Roe',
        status: 'New',
      });
      expect(await shown).toMatchObject({
        alert_type: 'warning',
        message: 'Fight in block C',
        alertId: record.id,
        prisonerName: 'Jane Roe',
      });
      const audit = await ctx().database.db.select().from(auditLog).where(eq(auditLog.entity, 'alert')).orderBy(auditLog.id);
      expect(audit.some((a) => a.entityId === String(record.id) && a.action === 'create')).toBe(true);
    } finally {
      socket.disconnect();
    }
  });

  it('POST /alert/all refuses bad input naming the field, and an unknown device with 404, storing nothing', async () => {
    const before = (await ctx().database.db.select().from(alerts)).length;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ details: 'x' }, /^alert_type/],
      [{ alert_type: 'Severe', details: 'x' }, /^alert_type/],
      [{ alert_type: 'Critical' }, /^details/],
      [{ alert_type: 'Critical', details: '   ' }, /^details/],
      [{ alert_type: 'Critical', details: 'x', date: '2026-02-30' }, /^date/],
      [{ alert_type: 'Critical', details: 'x', timestamp: 'yesterday' }, /^timestamp/],
    ];
    for (const [body, message] of cases) {
      const res = await ctx().api('POST', '/alert/all', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const unknown = await ctx().api('POST', '/alert/all', { device_id: 'nope', alert_type: 'Critical', details: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^device_id/);
    expect(await ctx().database.db.select().from(alerts)).toHaveLength(before);
  });

  it('GET /alert/recent answers the newest few; GET /alert/prisoneralerts pages newest first with counts and filters', async () => {
    const prisoner = await addPrisoner(ctx(), 'Page', 'Turner');
    const base = Date.UTC(2030, 0, 1);
    const types = ['Critical', 'Warning', 'Informational'] as const;
    await insertAlerts(
      ctx().database.db,
      Array.from({ length: 25 }, (_, i) => ({
        alertType: types[i % 3]!,
        kind: 'manual' as const,
        details: `alert ${i}`,
        at: new Date(base + i * 60_000),
        deviceId: null,
        prisonerId: prisoner.id,
      })),
    );
    const recent = await ctx().api('GET', '/alert/recent');
    expect(recent.statusCode).toBe(200);
    const recentData = recent.json<{ data: AlertRecord[] }>().data;
    expect(recentData).toHaveLength(10);
    expect(recentData[0]).toMatchObject({ details: 'alert 24', first_name: 'Page', last_name: 'Turner' });
    expect((await ctx().api('GET', '/alert/recent?limit=3')).json().data).toHaveLength(3);
    expect((await ctx().api('GET', '/alert/recent?limit=0')).statusCode).toBe(400);

    const page = async (query: string) => {
      const res = await ctx().api('GET', `/alert/prisoneralerts?${query}`);
      expect(res.statusCode).toBe(200);
      return res.json<AlertPage>();
    };
    const first = await page(`prisoner_id=${prisoner.id}&limit=10`);
    expect(first.data.map((a) => a.details)).toEqual(Array.from({ length: 10 }, (_, i) => `alert ${24 - i}`));
    expect(first).toMatchObject({
      currentPage: 1,
      totalPages: 3,
      totalAlerts: 25,
      counts: { Critical: 9, Warning: 8, Informational: 8 },
    });
    const third = await page(`prisoner_id=${prisoner.id}&limit=10&page=3`);
    expect(third.data).toHaveLength(5);
    const critical = await page(`prisoner_id=${prisoner.id}&alert_type=Critical`);
    expect(critical.totalAlerts).toBe(9);
    expect(critical.data.every((a) => a.alert_type === 'Critical')).toBe(true);
    const ranged = await page(
      `prisoner_id=${prisoner.id}&from=${new Date(base + 20 * 60_000).toISOString()}&to=${new Date(base + 22 * 60_000).toISOString()}`,
    );
    expect(ranged.data.map((a) => a.details)).toEqual(['alert 22', 'alert 21', 'alert 20']);
    expect((await ctx().api('GET', '/alert/prisoneralerts?alert_type=Severe')).statusCode).toBe(400);
    expect((await ctx().api('GET', '/alert/prisoneralerts?limit=101')).statusCode).toBe(400);
  });

  it("the Critical bar's one request: open Critical alerts with the prisoner's id and cell, open counts per level", async () => {
    const prisoner = await addPrisoner(ctx(), 'Bar', 'Watcher');
    const cellId = `BAR-${prisoner.id}`;
    const db = ctx().database.db;
    await db.insert(cells).values({ cellId, block: 'BAR', capacity: 2, securityLevel: 'High' });
    await db.update(prisoners).set({ cellId }).where(eq(prisoners.prisonerId, prisoner.id));
    const at = new Date(Date.UTC(2032, 0, 1));
    const draft = (alertType: 'Critical' | 'Warning' | 'Informational', details: string) => ({
      alertType,
      kind: 'sos' as const,
      details,
      at,
      deviceId: null,
      prisonerId: prisoner.id,
    });
    const [open, acknowledged] = await insertAlerts(db, [
      draft('Critical', 'bar open'),
      draft('Critical', 'bar acknowledged'),
      draft('Warning', 'bar warning'),
    ]);
    await db.update(alerts).set({ status: 'Acknowledged' }).where(eq(alerts.id, acknowledged!.id));

    const res = await ctx().api('GET', `/alert/prisoneralerts?status=New&alert_type=Critical&prisoner_id=${prisoner.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json<AlertPage>();
    expect(body.data.map((a) => a.id)).toEqual([open!.id]);
    expect(body.data[0]).toMatchObject({ prisoner_id: prisoner.id, first_name: 'Bar', last_name: 'Watcher', cell_id: cellId });
    expect(body.counts).toEqual({ Critical: 1, Warning: 1, Informational: 0 });
  });

  it('every count of GET /alert/prisoneralerts follows every filter: type, status, prisoner and time range (decision 029)', async () => {
    const prisoner = await addPrisoner(ctx(), 'Count', 'Follower');
    const other = await addPrisoner(ctx(), 'Other', 'Counted');
    const db = ctx().database.db;
    const base = Date.UTC(2033, 0, 1);
    // [type, status, minutes after base, prisoner]
    const plan: ['Critical' | 'Warning' | 'Informational', 'New' | 'Acknowledged' | 'Resolved', number, number][] = [
      ['Critical', 'New', 0, prisoner.id],
      ['Critical', 'Acknowledged', 1, prisoner.id],
      ['Critical', 'Resolved', 2, prisoner.id],
      ['Warning', 'New', 3, prisoner.id],
      ['Warning', 'New', 4, prisoner.id],
      ['Warning', 'Resolved', 5, prisoner.id],
      ['Informational', 'Acknowledged', 6, prisoner.id],
      ['Critical', 'New', 10, prisoner.id], // outside the time range used below
      ['Critical', 'New', 3, other.id], // another prisoner
    ];
    const stored = await insertAlerts(
      db,
      plan.map(([alertType, , minutes, prisonerId], i) => ({
        alertType,
        kind: 'manual' as const,
        details: `count ${i}`,
        at: new Date(base + minutes * 60_000),
        deviceId: null,
        prisonerId,
      })),
    );
    for (const [i, [, status]] of plan.entries())
      if (status !== 'New') await db.update(alerts).set({ status }).where(eq(alerts.id, stored[i]!.id));

    const range = `prisoner_id=${prisoner.id}&from=${new Date(base).toISOString()}&to=${new Date(base + 6 * 60_000).toISOString()}`;
    const page = async (query: string) => {
      const res = await ctx().api('GET', `/alert/prisoneralerts?${range}${query}`);
      expect(res.statusCode).toBe(200);
      return res.json<AlertPage>();
    };
    // Each expectation is counted from the plan above, not read back from the server.
    const all = await page('');
    expect(all).toMatchObject({
      totalAlerts: 7,
      counts: { Critical: 3, Warning: 3, Informational: 1 },
      filteredCounts: { Critical: 3, Warning: 3, Informational: 1 },
      statusCounts: { New: 3, Acknowledged: 2, Resolved: 2 },
    });
    const critical = await page('&alert_type=Critical');
    expect(critical).toMatchObject({
      totalAlerts: 3,
      // `counts` keeps its first meaning (every filter but the type), which the layout's open counts rely on.
      counts: { Critical: 3, Warning: 3, Informational: 1 },
      filteredCounts: { Critical: 3, Warning: 0, Informational: 0 },
      statusCounts: { New: 1, Acknowledged: 1, Resolved: 1 },
    });
    const open = await page('&status=New');
    expect(open).toMatchObject({
      totalAlerts: 3,
      filteredCounts: { Critical: 1, Warning: 2, Informational: 0 },
      statusCounts: { New: 3, Acknowledged: 0, Resolved: 0 },
    });
    const openWarnings = await page('&status=New&alert_type=Warning');
    expect(openWarnings).toMatchObject({
      totalAlerts: 2,
      filteredCounts: { Critical: 0, Warning: 2, Informational: 0 },
      statusCounts: { New: 2, Acknowledged: 0, Resolved: 0 },
    });
    expect(openWarnings.data.map((a) => a.details)).toEqual(['count 4', 'count 3']);
  });

  it('GET /alert/open-violations lists prisoners whose geofence violation is open, however many alerts came after', async () => {
    const open = await addPrisoner(ctx(), 'Open', 'Violation');
    const ended = await addPrisoner(ctx(), 'Ended', 'Violation');
    const resolved = await addPrisoner(ctx(), 'Resolved', 'Violation');
    const busy = await addPrisoner(ctx(), 'Busy', 'Offline');
    const at = new Date(Date.UTC(2031, 0, 1));
    const draft = (prisonerId: number, kind: 'geofence' | 'offline', minutes = 0) => ({
      alertType: 'Critical' as const,
      kind,
      details: `${kind} ${prisonerId}`,
      at: new Date(at.getTime() + minutes * 60_000),
      deviceId: null,
      prisonerId,
    });
    const [, endedAlert, resolvedAlert] = await insertAlerts(ctx().database.db, [
      draft(open.id, 'geofence'),
      draft(ended.id, 'geofence'),
      draft(resolved.id, 'geofence'),
    ]);
    await ctx().database.db.update(alerts).set({ endedAt: new Date() }).where(eq(alerts.id, endedAlert!.id));
    await ctx().database.db.update(alerts).set({ status: 'Resolved' }).where(eq(alerts.id, resolvedAlert!.id));
    // 150 newer alerts of another kind: the open violation is older than any page of recent alerts.
    await insertAlerts(
      ctx().database.db,
      Array.from({ length: 150 }, (_, i) => draft(busy.id, 'offline', i + 1)),
    );
    const res = await ctx().api('GET', '/alert/open-violations');
    expect(res.statusCode).toBe(200);
    const ids = res.json<{ data: number[] }>().data;
    expect(ids).toContain(open.id);
    expect(ids).not.toContain(ended.id);
    expect(ids).not.toContain(resolved.id);
    expect(ids).not.toContain(busy.id);
  });

  it('GET /alert/live-map gives per prisoner the worst open level, the open count and the first few, worst first', async () => {
    const mixed = await addPrisoner(ctx(), 'Mixed', 'Levels');
    const calm = await addPrisoner(ctx(), 'Calm', 'Handled');
    const at = new Date();
    const draft = (prisonerId: number, alertType: 'Critical' | 'Warning' | 'Informational', minutes: number) => ({
      alertType,
      kind: 'manual' as const,
      details: `${alertType} ${prisonerId} ${minutes}`,
      at: new Date(at.getTime() - minutes * 60_000),
      deviceId: null,
      prisonerId,
    });
    const stored = await insertAlerts(ctx().database.db, [
      draft(mixed.id, 'Informational', 1),
      draft(mixed.id, 'Warning', 3),
      draft(mixed.id, 'Warning', 2),
      draft(mixed.id, 'Critical', 9),
      ...Array.from({ length: 4 }, (_, i) => draft(mixed.id, 'Informational', 10 + i)),
      draft(calm.id, 'Critical', 1),
    ]);
    // Acknowledged is no longer open: `calm` has nothing left to colour its marker.
    await ctx().database.db.update(alerts).set({ status: 'Acknowledged' }).where(eq(alerts.id, stored[8]!.id));
    let res = await ctx().api('GET', '/alert/live-map');
    expect(res.statusCode).toBe(200);
    let rows = res.json<{ data: LiveMapPrisonerAlerts[] }>().data;
    expect(rows.find((row) => row.prisoner_id === calm.id)).toBeUndefined();
    const row = rows.find((entry) => entry.prisoner_id === mixed.id)!;
    expect(row).toMatchObject({ worst_level: 'Critical', open_count: 8, in_violation: false });
    expect(row.open.map((alert) => alert.id)).toEqual([stored[3]!.id, stored[2]!.id, stored[1]!.id, stored[0]!.id, stored[4]!.id]);

    await ctx().database.db.update(alerts).set({ status: 'Resolved' }).where(eq(alerts.id, stored[3]!.id));
    res = await ctx().api('GET', '/alert/live-map');
    rows = res.json<{ data: LiveMapPrisonerAlerts[] }>().data;
    expect(rows.find((entry) => entry.prisoner_id === mixed.id)).toMatchObject({ worst_level: 'Warning', open_count: 7 });
  });

  it('GET /alert/live-map gives the worst open violation level: Informational alone is "in zone", not a violation', async () => {
    const zoned = await addPrisoner(ctx(), 'Zoned', 'Curfew');
    const breached = await addPrisoner(ctx(), 'Breached', 'Perimeter');
    const handled = await addPrisoner(ctx(), 'Handled', 'Breach');
    const draft = (prisonerId: number, alertType: 'Critical' | 'Warning' | 'Informational') => ({
      alertType,
      kind: 'geofence' as const,
      details: `${alertType} ${prisonerId}`,
      at: new Date(),
      deviceId: null,
      prisonerId,
    });
    const stored = await insertAlerts(ctx().database.db, [
      draft(zoned.id, 'Informational'),
      draft(breached.id, 'Informational'),
      draft(breached.id, 'Critical'),
      draft(handled.id, 'Warning'),
    ]);
    // Acknowledged but still going on: the violation stays, with its level, while no New alert is left.
    await ctx().database.db.update(alerts).set({ status: 'Acknowledged' }).where(eq(alerts.id, stored[3]!.id));
    const rows = (await ctx().api('GET', '/alert/live-map')).json<{ data: LiveMapPrisonerAlerts[] }>().data;
    const of = (id: number) => rows.find((row) => row.prisoner_id === id);
    expect(of(zoned.id)).toMatchObject({ in_violation: true, violation_level: 'Informational' });
    expect(of(breached.id)).toMatchObject({ in_violation: true, violation_level: 'Critical', worst_level: 'Critical' });
    expect(of(handled.id)).toMatchObject({ in_violation: true, violation_level: 'Warning', worst_level: null });
  });
});
