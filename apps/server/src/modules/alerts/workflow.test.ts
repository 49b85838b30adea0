import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_PREFIX } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp } from '../../../test/test-app';
import { alerts, auditLog, prisoners } from '../../db/schema';
import { dailyAlertCounts } from './workflow-service';

describeEachEngine('alert workflow', (engine) => {
  const ctx = useTestApp(engine);

  async function newAlert(alertType: 'Informational' | 'Warning' | 'Critical' = 'Warning', at = new Date()) {
    const [prisoner] = await ctx()
      .database.db.insert(prisoners)
      .values({ firstName: 'Alert', lastName: 'Subject' })
      .returning();
    const [row] = await ctx()
      .database.db.insert(alerts)
      .values({
        alertType,
        kind: 'geofence',
        details: 'Left the yard',
        date: at.toISOString().slice(0, 10),
        timestamp: at,
        prisonerId: prisoner!.prisonerId,
      })
      .returning();
    return row!.id;
  }
  const auditOf = async (id: number) =>
    (
      await ctx()
        .database.db.select()
        .from(auditLog)
        .where(eq(auditLog.entityId, String(id)))
    ).filter((e) => e.entity === 'alert');

  it('acknowledges then resolves with who, when and notes, each step audited', async () => {
    const id = await newAlert();
    const ack = await ctx().api('POST', `/alert/${id}/acknowledge`, { note: 'Guard sent' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json()).toMatchObject({
      id,
      status: 'Acknowledged',
      acknowledged_by: TEST_ADMIN.username,
      acknowledged_at: expect.any(String),
      resolved_by: null,
      note: 'Guard sent',
      first_name: 'Alert',
    });
    const again = await ctx().api('POST', `/alert/${id}/acknowledge`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: `Alert ${id} is already acknowledged` });
    const resolved = await ctx().api('POST', `/alert/${id}/resolve`, { note: 'Back in cell' });
    expect(resolved.json()).toMatchObject({
      status: 'Resolved',
      resolved_by: TEST_ADMIN.username,
      note: 'Guard sent\nBack in cell',
    });
    expect((await ctx().api('POST', `/alert/${id}/resolve`)).statusCode).toBe(409);
    expect((await ctx().api('POST', `/alert/${id}/acknowledge`)).json().message).toBe(
      `Alert ${id} is already resolved`,
    );
    const audit = await auditOf(id);
    expect(audit.map((e) => e.action).sort()).toEqual(['acknowledge', 'resolve']);
    expect(audit.find((e) => e.action === 'resolve')).toMatchObject({
      actor: TEST_ADMIN.username,
      before: { status: 'Acknowledged' },
      after: { status: 'Resolved' },
    });
  });

  it('resolves a New alert directly (acknowledging it too), with no body at all', async () => {
    const id = await newAlert();
    const res = await ctx().app.inject({
      method: 'POST',
      url: `${API_PREFIX}/alert/${id}/resolve`,
      headers: { cookie: ctx().cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'Resolved',
      acknowledged_by: TEST_ADMIN.username,
      resolved_by: TEST_ADMIN.username,
      note: null,
    });
  });

  it('refuses bad input and unknown alerts', async () => {
    expect((await ctx().api('POST', '/alert/999999/acknowledge', {})).statusCode).toBe(404);
    const badId = await ctx().api('POST', '/alert/abc/resolve', {});
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/^id/);
    const id = await newAlert();
    const longNote = await ctx().api('POST', `/alert/${id}/acknowledge`, { note: 'x'.repeat(2001) });
    expect(longNote.statusCode).toBe(400);
    expect(longNote.json().message).toMatch(/^note/);
    const [row] = await ctx().database.db.select().from(alerts).where(eq(alerts.id, id));
    expect(row!.status).toBe('New');
  });

  it('acts in bulk, skipping alerts already there, and changes nothing when an id is unknown', async () => {
    const [a, b, c] = [await newAlert(), await newAlert(), await newAlert()];
    await ctx().api('POST', `/alert/${c}/resolve`, {});
    const res = await ctx().api('POST', '/alert/bulk', { ids: [a, b, c, a], action: 'acknowledge', note: 'Shift B' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: [a, b], skipped: [c] });
    const unknown = await ctx().api('POST', '/alert/bulk', { ids: [a, 999999], action: 'resolve' });
    expect(unknown.statusCode).toBe(404);
    const [rowA] = await ctx().database.db.select().from(alerts).where(eq(alerts.id, a));
    expect(rowA!.status).toBe('Acknowledged');
    const resolved = await ctx().api('POST', '/alert/bulk', { ids: [a, b], action: 'resolve' });
    expect(resolved.json()).toEqual({ updated: [a, b], skipped: [] });
    for (const [payload, field] of [
      [{ ids: [], action: 'resolve' }, /^ids/],
      [{ ids: [a], action: 'delete' }, /^action/],
      [{ action: 'resolve' }, /^ids/],
    ] as const) {
      const bad = await ctx().api('POST', '/alert/bulk', payload);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(field);
    }
  });

  it('counts alerts per day and type over the last 30 days', async () => {
    const now = new Date();
    await newAlert('Critical', now);
    await newAlert('Critical', now);
    await newAlert('Informational', new Date(now.getTime() - 2 * 86_400_000));
    await newAlert('Warning', new Date(now.getTime() - 40 * 86_400_000));
    const res = await ctx().api('GET', '/alert/stats/daily');
    expect(res.statusCode).toBe(200);
    const days = res.json().days as { date: string; Critical: number; Warning: number; Informational: number }[];
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.date).toBe(now.toISOString().slice(0, 10));
    expect(days.at(-1)!.Critical).toBeGreaterThanOrEqual(2);
    expect(days.at(-3)!.Informational).toBeGreaterThanOrEqual(1);
    const direct = await dailyAlertCounts(ctx().database.db, 7, now);
    expect(direct).toHaveLength(7);
    expect((await ctx().api('GET', '/alert/stats/daily?days=0')).statusCode).toBe(400);
  });

  it('needs a session', async () => {
    for (const [method, url] of [
      ['POST', '/alert/1/acknowledge'],
      ['POST', '/alert/1/resolve'],
      ['POST', '/alert/bulk'],
      ['GET', '/alert/stats/daily'],
    ] as const) {
      expect((await ctx().app.inject({ method, url: `${API_PREFIX}${url}` })).statusCode, url).toBe(401);
    }
  });
});
