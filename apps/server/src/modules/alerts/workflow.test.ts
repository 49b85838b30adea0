import { expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { ALERT_TYPES, API_PREFIX, type AlertType } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp } from '../../../test/test-app';
import { alerts, auditLog, prisoners } from '../../db/schema';
import { dailyAlertCounts } from './workflow-service';

describeEachEngine('alert workflow', (engine) => {
  const ctx = useTestApp(engine);

  async function newAlert(alertType: AlertType = 'Warning', at = new Date(), details = 'Left the yard') {
    const [prisoner] = await ctx()
      .database.db.insert(prisoners)
      .values({ firstName: 'Alert', lastName: 'Subject' })
      .returning();
    const [row] = await ctx()
      .database.db.insert(alerts)
      .values({
        alertType,
        kind: 'geofence',
        details,
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
        .where(eq(auditLog.entityId, String(id))).orderBy(auditLog.id)
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
      before: { status: 'Acknowledged', alert_type: 'Warning', details: 'Left the yard' },
      after: { status: 'Resolved', alert_type: 'Warning', details: 'Left the yard' },
    });
  });

  it('resolves a New Informational alert directly (acknowledging it too), with no body at all', async () => {
    const id = await newAlert('Informational');
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

  it('acknowledges a Critical only with a note in words: 400 naming note without one, nothing changed; 200 with one', async () => {
    const id = await newAlert('Critical', new Date(), 'Perimeter breach');
    for (const body of [{}, { note: '' }, { note: ' -- ' }, undefined]) {
      const refused = await ctx().api('POST', `/alert/${id}/acknowledge`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json()).toEqual({
        message: 'note is required to acknowledge a Critical alert: say in words what is being done',
      });
    }
    const [row] = await ctx().database.db.select().from(alerts).where(eq(alerts.id, id));
    expect(row).toMatchObject({ status: 'New', acknowledgedBy: null, note: null });
    expect(await auditOf(id)).toHaveLength(0);
    const taken = await ctx().api('POST', `/alert/${id}/acknowledge`, { note: 'Two officers sent to the fence' });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json()).toMatchObject({ status: 'Acknowledged', note: 'Two officers sent to the fence' });
    // Warning and Informational alerts are acknowledged without a note, as before.
    for (const level of ['Warning', 'Informational'] as const) {
      const other = await newAlert(level);
      expect((await ctx().api('POST', `/alert/${other}/acknowledge`, {})).statusCode, level).toBe(200);
    }
  });

  it('acts in bulk, skipping alerts already there, and changes nothing when an id is unknown', async () => {
    const [a, b, c] = [await newAlert('Informational'), await newAlert('Warning'), await newAlert('Informational')];
    await ctx().api('POST', `/alert/${c}/resolve`, {});
    const res = await ctx().api('POST', '/alert/bulk', { ids: [a, b, c, a], action: 'acknowledge', note: 'Shift B' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: [a, b], skipped: [c] });
    const unknown = await ctx().api('POST', '/alert/bulk', { ids: [a, 999999], action: 'resolve' });
    expect(unknown.statusCode).toBe(404);
    const [rowA] = await ctx().database.db.select().from(alerts).where(eq(alerts.id, a));
    expect(rowA!.status).toBe('Acknowledged');
    const resolved = await ctx().api('POST', '/alert/bulk', { ids: [a, b], action: 'resolve', note: 'All clear' });
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

  // Decision 040: each level x each way of closing it. `expect` gives the status code per level; a
  // refused step must change nothing (the row and its audit trail as they were), an allowed one is audited with the
  // alert's level and text.
  const DELIBERATE = (level: AlertType) => level !== 'Informational';
  const transitions: {
    name: string;
    acknowledgedFirst: boolean;
    request: (id: number) => [url: string, body: unknown];
    expect: (level: AlertType) => number;
    status: 'Acknowledged' | 'Resolved';
  }[] = [
    // A Critical is acknowledged only with a note in words (decision 095); the other levels as before.
    {
      name: 'acknowledge without a note',
      acknowledgedFirst: false,
      request: (id) => [`/alert/${id}/acknowledge`, {}],
      expect: (level) => (level === 'Critical' ? 400 : 200),
      status: 'Acknowledged',
    },
    {
      name: 'acknowledge with no body at all',
      acknowledgedFirst: false,
      request: (id) => [`/alert/${id}/acknowledge`, undefined],
      expect: (level) => (level === 'Critical' ? 400 : 200),
      status: 'Acknowledged',
    },
    {
      name: 'acknowledge with a blank note',
      acknowledgedFirst: false,
      request: (id) => [`/alert/${id}/acknowledge`, { note: '   ' }],
      expect: (level) => (level === 'Critical' ? 400 : 200),
      status: 'Acknowledged',
    },
    {
      name: 'acknowledge with a note of punctuation only',
      acknowledgedFirst: false,
      request: (id) => [`/alert/${id}/acknowledge`, { note: '...' }],
      expect: (level) => (level === 'Critical' ? 400 : 200),
      status: 'Acknowledged',
    },
    {
      name: 'acknowledge with a note',
      acknowledgedFirst: false,
      request: (id) => [`/alert/${id}/acknowledge`, { note: 'Officer Reyes on the way' }],
      expect: () => 200,
      status: 'Acknowledged',
    },
    {
      name: 'resolve a New alert without a note',
      acknowledgedFirst: false,
      request: (id) => [`/alert/${id}/resolve`, {}],
      expect: (level) => (DELIBERATE(level) ? 409 : 200),
      status: 'Resolved',
    },
    {
      name: 'resolve a New alert with a note',
      acknowledgedFirst: false,
      request: (id) => [`/alert/${id}/resolve`, { note: 'Officer on scene' }],
      expect: (level) => (DELIBERATE(level) ? 409 : 200),
      status: 'Resolved',
    },
    {
      name: 'resolve an acknowledged alert without a note',
      acknowledgedFirst: true,
      request: (id) => [`/alert/${id}/resolve`, {}],
      expect: (level) => (DELIBERATE(level) ? 400 : 200),
      status: 'Resolved',
    },
    {
      name: 'resolve an acknowledged alert with a blank note',
      acknowledgedFirst: true,
      request: (id) => [`/alert/${id}/resolve`, { note: '   ' }],
      expect: (level) => (DELIBERATE(level) ? 400 : 200),
      status: 'Resolved',
    },
    {
      name: 'resolve an acknowledged alert with a note of punctuation only',
      acknowledgedFirst: true,
      request: (id) => [`/alert/${id}/resolve`, { note: '.......... -- !?' }],
      expect: (level) => (DELIBERATE(level) ? 400 : 200),
      status: 'Resolved',
    },
    {
      name: 'resolve an acknowledged alert with a note',
      acknowledgedFirst: true,
      request: (id) => [`/alert/${id}/resolve`, { note: 'Back in cell 4, checked by Sgt Okafor' }],
      expect: () => 200,
      status: 'Resolved',
    },
    {
      name: 'bulk acknowledge, not chosen one by one',
      acknowledgedFirst: false,
      request: (id) => ['/alert/bulk', { ids: [id], action: 'acknowledge' }],
      expect: (level) => (level === 'Critical' ? 409 : 200),
      status: 'Acknowledged',
    },
    {
      name: 'bulk acknowledge without a note, chosen one by one',
      acknowledgedFirst: false,
      request: (id) => ['/alert/bulk', { ids: [id], action: 'acknowledge', confirm_critical_ids: [id] }],
      expect: (level) => (level === 'Critical' ? 400 : 200),
      status: 'Acknowledged',
    },
    {
      name: 'bulk acknowledge with a note, chosen one by one',
      acknowledgedFirst: false,
      request: (id) => ['/alert/bulk', { ids: [id], action: 'acknowledge', note: 'Shift B on it', confirm_critical_ids: [id] }],
      expect: () => 200,
      status: 'Acknowledged',
    },
    {
      name: 'bulk resolve of an acknowledged alert with a note, not chosen one by one',
      acknowledgedFirst: true,
      request: (id) => ['/alert/bulk', { ids: [id], action: 'resolve', note: 'Shift handover: all checked' }],
      expect: (level) => (level === 'Critical' ? 409 : 200),
      status: 'Resolved',
    },
    {
      name: 'bulk resolve of a New alert with a note, chosen one by one',
      acknowledgedFirst: false,
      request: (id) => ['/alert/bulk', { ids: [id], action: 'resolve', note: 'All checked', confirm_critical_ids: [id] }],
      expect: (level) => (DELIBERATE(level) ? 409 : 200),
      status: 'Resolved',
    },
    {
      name: 'bulk resolve of an acknowledged alert without a note, chosen one by one',
      acknowledgedFirst: true,
      request: (id) => ['/alert/bulk', { ids: [id], action: 'resolve', confirm_critical_ids: [id] }],
      expect: (level) => (DELIBERATE(level) ? 400 : 200),
      status: 'Resolved',
    },
    {
      name: 'bulk resolve of an acknowledged alert with a note, chosen one by one',
      acknowledgedFirst: true,
      request: (id) => ['/alert/bulk', { ids: [id], action: 'resolve', note: 'All checked', confirm_critical_ids: [id] }],
      expect: () => 200,
      status: 'Resolved',
    },
  ];

  it('closes an alarm only deliberately: each level x each transition', async () => {
    const rowOf = async (id: number) => (await ctx().database.db.select().from(alerts).where(eq(alerts.id, id)))[0]!;
    for (const level of ALERT_TYPES) {
      for (const transition of transitions) {
        const what = `${level}: ${transition.name}`;
        const text = `SOS pressed (${what})`;
        const id = await newAlert(level, new Date(), text);
        if (transition.acknowledgedFirst)
          expect((await ctx().api('POST', `/alert/${id}/acknowledge`, { note: 'Taken' })).statusCode, what).toBe(200);
        const before = await rowOf(id);
        const auditBefore = await auditOf(id);
        const [url, body] = transition.request(id);
        const res = await ctx().api('POST', url, body);
        const expected = transition.expect(level);
        expect(res.statusCode, `${what}: ${res.body}`).toBe(expected);
        if (expected !== 200) {
          // Says why, naming the field or the rule, and changes nothing.
          expect(res.json().message, what).toMatch(
            expected === 400 ? /^note is required/ : /acknowledge it before resolving|chosen one by one/,
          );
          expect(await rowOf(id), what).toEqual(before);
          expect(await auditOf(id), what).toHaveLength(auditBefore.length);
          continue;
        }
        expect((await rowOf(id)).status, what).toBe(transition.status);
        const step = (await auditOf(id)).find((e) => e.action === (transition.status === 'Resolved' ? 'resolve' : 'acknowledge'));
        expect(step, what).toMatchObject({
          before: { alert_type: level, details: text },
          after: { alert_type: level, details: text, status: transition.status },
        });
        if (url === '/alert/bulk') expect(step!.after, what).toMatchObject({ bulk: true });
      }
    }
  });

  it('a bulk resolve of a page with Criticals on it leaves them open', async () => {
    const criticals = await Promise.all(Array.from({ length: 5 }, () => newAlert('Critical')));
    const routine = await Promise.all(Array.from({ length: 17 }, () => newAlert('Informational')));
    const statusOf = async (ids: number[]) =>
      (await ctx().database.db.select().from(alerts).where(inArray(alerts.id, ids))).map((row) => row.status);

    // The whole page at once: refused, naming the Criticals, and nothing changes.
    const all = await ctx().api('POST', '/alert/bulk', { ids: [...criticals, ...routine], action: 'resolve' });
    expect(all.statusCode).toBe(409);
    expect(all.json().message).toBe(
      `Alerts ${[...criticals].sort((a, b) => a - b).join(', ')} are Critical: a bulk action takes a Critical alert only when it is chosen one ` +
        'by one (list it in confirm_critical_ids)',
    );
    expect(new Set(await statusOf([...criticals, ...routine]))).toEqual(new Set(['New']));

    // What the alerts screen sends: the Informational ones; the Criticals stay open.
    const page = await ctx().api('POST', '/alert/bulk', { ids: routine, action: 'resolve' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().updated).toHaveLength(17);
    expect(new Set(await statusOf(routine))).toEqual(new Set(['Resolved']));
    expect(new Set(await statusOf(criticals))).toEqual(new Set(['New']));

    // A confirmation may only name alerts of the request.
    const stray = await ctx().api('POST', '/alert/bulk', {
      ids: [criticals[0]],
      action: 'acknowledge',
      confirm_critical_ids: [criticals[0], criticals[1]],
    });
    expect(stray.statusCode).toBe(400);
    expect(stray.json().message).toMatch(/^confirm_critical_ids/);
    expect(new Set(await statusOf(criticals))).toEqual(new Set(['New']));
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
