// Every Critical shown as a Critical (decision 105): the live event names the level in lowercase as docs/CLIENT-CONTRACT.md
// does, the spec's client's unpaged alert list holds every open Critical however many alerts are stored, and opening
// an incident from a Critical acknowledges it with the incident as its note. The Critical sound is each account's own,
// off by default for the roles that cannot act on an alert; every screen may ask whether escalation is on.
import { expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ALERTS_UNPAGED_NEWEST, type AlertPage, type AlertRecord, type ShowAlertEvent } from '@prison/shared';
import { alerts, auditLog } from '../../db/schema';
import { addDevice, addPrisoner, browserSocket, connected, nextEvent, useListeningApp } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';
import { createRoleAccounts, sendAs, sessionCookie } from '../../../test/route-access-kit';

describeEachEngine('a Critical everywhere', (engine) => {
  const ctx = useListeningApp(engine);

  it('showAlert for a Critical carries alert_type "critical"; the spec client posting it back repeats it', async () => {
    const prisoner = await addPrisoner(ctx(), 'Lower', 'Case');
    const device = await addDevice(ctx(), { prisoner_id: prisoner.id });
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const shown = nextEvent<ShowAlertEvent>(socket, 'showAlert', (a) => a.index === device.id);
      const res = await ctx().api('POST', '/alert/all', { device_id: device.id, alert_type: 'Critical', details: 'SOS in the chapel' });
      expect(res.statusCode, res.body).toBe(201);
      const stored = res.json<AlertRecord>();
      // REST keeps the stored type as docs/CLIENT-CONTRACT.md writes it.
      expect(stored.alert_type).toBe('Critical');
      const event = await shown;
      expect(event).toMatchObject({ alert_type: 'critical', message: 'SOS in the chapel', alertId: stored.id });
      // The spec's client posts every showAlert back as it came: the lowercase level is the same alert, not a 400.
      const echo = await ctx().api('POST', '/alert/all', { device_id: event.index, alert_type: event.alert_type, details: event.message });
      expect(echo.statusCode, echo.body).toBe(200);
      expect(echo.json<AlertRecord>()).toMatchObject({ id: stored.id, alert_type: 'Critical' });
    } finally {
      socket.close();
    }
  });

  it('/alert/prisoneralerts without page holds every open Critical and Warning and the newest 1,000; with page it pages', async () => {
    const db = ctx().database.db;
    const prisoner = await addPrisoner(ctx(), 'Many', 'Alerts');
    // Two open Criticals and an open Warning raised long ago, then 1,100 newer Informational alerts (in one statement).
    const old = Date.now() - 20 * 3600_000;
    const early = await db
      .insert(alerts)
      .values([
        { alertType: 'Critical', kind: 'manual', details: 'old open Critical 1', date: '2026-01-01', timestamp: new Date(old), prisonerId: prisoner.id },
        { alertType: 'Critical', kind: 'manual', details: 'old open Critical 2', date: '2026-01-01', timestamp: new Date(old + 1000), prisonerId: prisoner.id },
        { alertType: 'Warning', kind: 'manual', details: 'old open Warning', date: '2026-01-01', timestamp: new Date(old + 2000), prisonerId: prisoner.id },
        { alertType: 'Critical', kind: 'manual', details: 'old acknowledged Critical', date: '2026-01-01', timestamp: new Date(old + 3000), prisonerId: prisoner.id, status: 'Acknowledged' },
      ])
      .returning({ id: alerts.id });
    await db.execute(sql`
      insert into alerts (alert_type, kind, details, date, timestamp, prisoner_id)
      select 'Informational', 'manual', 'routine ' || n, current_date, now() - (n || ' seconds')::interval, ${prisoner.id}
      from generate_series(1, 1100) as n`);

    const res = await ctx().api('GET', '/alert/prisoneralerts');
    expect(res.statusCode).toBe(200);
    const body = res.json<AlertPage>();
    const details = body.data.map((a) => a.details);
    expect(details).toContain('old open Critical 1');
    expect(details).toContain('old open Critical 2');
    expect(details).toContain('old open Warning');
    // The acknowledged one is older than the newest 1,000 and not open: it is not added.
    expect(details).not.toContain('old acknowledged Critical');
    expect(body.data.filter((a) => a.details.startsWith('routine ')).length).toBeGreaterThanOrEqual(ALERTS_UNPAGED_NEWEST - 10);
    expect(body.data.length).toBeGreaterThanOrEqual(ALERTS_UNPAGED_NEWEST);
    // Newest first, each once.
    const times = body.data.map((a) => Date.parse(a.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(body.data.map((a) => a.id)).size).toBe(body.data.length);
    // What the spec's client counts: every open Critical is in the list it was given.
    const openCriticals = await db.$count(alerts, and(eq(alerts.alertType, 'Critical'), eq(alerts.status, 'New')));
    expect(body.data.filter((a) => a.alert_type === 'Critical' && a.status === 'New')).toHaveLength(openCriticals);
    expect(body.totalAlerts).toBeGreaterThanOrEqual(1104);

    // With page (or limit) it pages as before.
    const paged = (await ctx().api('GET', '/alert/prisoneralerts?page=2')).json<AlertPage>();
    expect(paged.data).toHaveLength(20);
    expect(paged.currentPage).toBe(2);
    expect((await ctx().api('GET', '/alert/prisoneralerts?limit=5')).json<AlertPage>().data).toHaveLength(5);
    await db.delete(alerts).where(eq(alerts.prisonerId, prisoner.id));
    expect(early).toHaveLength(4);
  });

  it('opening an incident from a Critical acknowledges it with the incident as its note; a Warning stays open', async () => {
    const prisoner = await addPrisoner(ctx(), 'Incident', 'Opened');
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const [critical, warning] = await ctx()
      .database.db.insert(alerts)
      .values([
        { alertType: 'Critical', kind: 'manual', details: 'Fight on the landing', date: at.toISOString().slice(0, 10), timestamp: at, prisonerId: prisoner.id },
        { alertType: 'Warning', kind: 'manual', details: 'Shouting on the landing', date: at.toISOString().slice(0, 10), timestamp: at, prisonerId: prisoner.id },
      ])
      .returning({ id: alerts.id });
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const gone = nextEvent<{ ids: number[]; status: string }>(socket, 'alertStatusChanged', (e) => e.ids.includes(critical!.id));
      const res = await ctx().api('POST', '/incidents', {
        description: 'Fight on the landing',
        window: { from: new Date(at.getTime() - 900_000).toISOString(), to: new Date(at.getTime() + 900_000).toISOString() },
        alert_ids: [critical!.id, warning!.id],
        prisoner_ids: [prisoner.id],
      });
      expect(res.statusCode, res.body).toBe(200);
      const incidentId = res.json<{ id: number }>().id;
      // Its toast goes and the Critical bar refetches in every browser.
      expect(await gone).toMatchObject({ status: 'Acknowledged' });
      const record = (await ctx().api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}&limit=10`)).json<AlertPage>().data;
      expect(record.find((a) => a.id === critical!.id)).toMatchObject({ status: 'Acknowledged', note: `Incident #${incidentId} opened`, acknowledged_by: 'warden' });
      expect(record.find((a) => a.id === warning!.id)).toMatchObject({ status: 'New', note: null });
      const trail = await ctx().database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'alert'), eq(auditLog.entityId, String(critical!.id)))).orderBy(auditLog.id);
      expect(trail.map((row) => row.action)).toEqual(['acknowledge']);
      // An incident opened later from the same (now acknowledged) Critical changes nothing of it.
      const again = await ctx().api('POST', '/incidents', {
        description: 'Second look',
        window: { from: new Date(at.getTime() - 900_000).toISOString(), to: new Date(at.getTime() + 900_000).toISOString() },
        alert_ids: [critical!.id],
      });
      expect(again.statusCode, again.body).toBe(200);
      const after = (await ctx().api('GET', `/alert/prisoneralerts?prisoner_id=${prisoner.id}&limit=10`)).json<AlertPage>().data;
      expect(after.find((a) => a.id === critical!.id)!.note).toBe(`Incident #${incidentId} opened`);
    } finally {
      socket.close();
    }
  });

  it("the Critical sound is each account's: on by default for an operator, off for an auditor and a records clerk", async () => {
    const accounts = await createRoleAccounts(ctx().database, { prefix: 'sound' });
    const as = async (role: 'operator' | 'auditor' | 'records') => sessionCookie(ctx().database, accounts[role]);
    const operator = await as('operator');
    const auditor = await as('auditor');
    const read = async (cookie: string) => (await sendAs(ctx().app, cookie, 'GET', '/api/v1/profile/critical-sound')).json();
    expect(await read(operator)).toEqual({ on: true, default_on: true });
    expect(await read(auditor)).toEqual({ on: false, default_on: false });
    expect(await read(await as('records'))).toEqual({ on: false, default_on: false });
    // The auditor turns it on for himself; the operator's stays as it was.
    const set = await sendAs(ctx().app, auditor, 'PUT', '/api/v1/profile/critical-sound', { on: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ on: true, default_on: false });
    expect(await read(auditor)).toEqual({ on: true, default_on: false });
    expect(await read(operator)).toEqual({ on: true, default_on: true });
    const bad = await sendAs(ctx().app, auditor, 'PUT', '/api/v1/profile/critical-sound', { on: 'loud' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^on/);
    const trail = await ctx().database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'admin'), eq(auditLog.entityId, String(accounts.auditor.id)))).orderBy(auditLog.id);
    expect(trail.map((row) => [row.action, row.after])).toEqual([['critical_sound', { critical_sound: true }]]);
    // Escalation is off here (no channel): every screen may read that, and the delay.
    const escalation = await sendAs(ctx().app, operator, 'GET', '/api/v1/escalation/settings');
    expect(escalation.json()).toEqual({ escalateAfterSeconds: 120, channels: [] });
  });
});
