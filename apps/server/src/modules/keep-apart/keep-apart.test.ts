// Keep-apart pairs: the API (create, list, end, bounded input, audit) and live meetings raising a stored Warning that
// reaches browsers through showAlert, once per meeting, on both engines.
import { expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { KeepApartPair, ShowAlertEvent } from '@prison/shared';
import { destinationPoint } from '@prison/shared';
import { alerts, auditLog } from '../../db/schema';
import { addDevice, addPrisoner, browserSocket, connected, nextEvent, useListeningApp } from '../../tracking/tracking-test-kit';
import { describeEachEngine } from '../../../test/test-db';
import { approvedBySecondAdmin, writeApproved } from '../../../test/test-app';

describeEachEngine('keep-apart pairs', (engine) => {
  const ctx = useListeningApp(engine);
  const api = (method: string, url: string, body?: unknown) => ctx().api(method, url, body);

  it('creates, lists (all, one prisoner, active) and ends pairs, each audited; bad input is a 400 naming the field', async () => {
    const a = await addPrisoner(ctx(), 'Kai', 'Moss');
    const b = await addPrisoner(ctx(), 'Lou', 'Reed');
    const c = await addPrisoner(ctx(), 'Max', 'Hale');
    const created = await api('POST', '/keep-apart', { prisoner_a: a.id, prisoner_b: b.id, reason: 'Threat', scope: 'block', comment: 'Threats made at visits' });
    expect(created.statusCode, created.body).toBe(200);
    const pair = created.json().pair as KeepApartPair;
    expect(pair).toMatchObject({
      prisoner_a: { prisoner_id: a.id, first_name: 'Kai', last_name: 'Moss' },
      prisoner_b: { prisoner_id: b.id, first_name: 'Lou' },
      reason: 'Threat',
      scope: 'block',
      comment: 'Threats made at visits',
      created_by: 'warden',
      ended_at: null,
    });
    // The same two prisoners, either way round, are one active pair.
    const again = await api('POST', '/keep-apart', { prisoner_a: b.id, prisoner_b: a.id, reason: 'Violence', scope: 'cell' });
    expect(again.statusCode).toBe(409);
    const other = (await api('POST', '/keep-apart', { prisoner_a: a.id, prisoner_b: c.id, reason: 'Other', scope: 'cell' })).json().pair as KeepApartPair;

    for (const [body, field] of [
      [{ prisoner_a: a.id, prisoner_b: a.id, reason: 'Threat', scope: 'cell' }, 'prisoner_b'],
      [{ prisoner_a: a.id, prisoner_b: b.id, reason: 'Dislike', scope: 'cell' }, 'reason'],
      [{ prisoner_a: a.id, prisoner_b: b.id, reason: 'Threat', scope: 'wing' }, 'scope'],
      [{ prisoner_a: a.id, prisoner_b: b.id, reason: 'Threat', scope: 'cell', comment: 'x'.repeat(1001) }, 'comment'],
      [{ prisoner_a: a.id, prisoner_b: b.id, reason: 'Threat', scope: 'cell', comment: 'bad\u0000text' }, 'comment'],
      [{ prisoner_a: 0, prisoner_b: b.id, reason: 'Threat', scope: 'cell' }, 'prisoner_a'],
      [{ prisoner_a: a.id, prisoner_b: 987654, reason: 'Threat', scope: 'cell' }, 'prisoner_b'],
    ] as const) {
      const res = await api('POST', '/keep-apart', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}: `));
    }

    const ofB = (await api('GET', `/keep-apart?prisoner_id=${b.id}`)).json().data as KeepApartPair[];
    expect(ofB.map((p) => p.id)).toEqual([pair.id]);
    const ofA = (await api('GET', `/keep-apart?prisoner_id=${a.id}`)).json().data as KeepApartPair[];
    expect(ofA.map((p) => p.id)).toEqual([other.id, pair.id]);
    expect(((await api('GET', '/keep-apart')).json().data as KeepApartPair[]).length).toBeGreaterThanOrEqual(2);

    expect((await api('POST', `/keep-apart/${pair.id}/end`, {})).json().message).toMatch(/^reason: /);
    // Ending a pair waits for a second administrator (decision 041).
    const asked = await api('POST', `/keep-apart/${pair.id}/end`, { reason: 'Moved to another prison' });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().pair.ended_at).toBeNull();
    expect((await api('POST', `/keep-apart/${pair.id}/end`, { reason: 'Asked twice' })).statusCode).toBe(409);
    await approvedBySecondAdmin(ctx(), asked);
    const ended = (await api('GET', `/keep-apart?prisoner_id=${b.id}`)).json().data[0] as KeepApartPair;
    expect(ended).toMatchObject({ id: pair.id, end_reason: 'Moved to another prison' });
    expect(ended.ended_by).toMatch(/^second/);
    expect(ended.ended_at).toEqual(expect.any(String));
    expect((await api('POST', `/keep-apart/${pair.id}/end`, { reason: 'Twice' })).statusCode).toBe(409);
    expect((await api('POST', '/keep-apart/987654/end', { reason: 'Nobody' })).statusCode).toBe(404);
    const active = (await api('GET', `/keep-apart?prisoner_id=${a.id}&active=true`)).json().data as KeepApartPair[];
    expect(active.map((p) => p.id)).toEqual([other.id]);
    // Ended, a pair can be made again.
    expect((await api('POST', '/keep-apart', { prisoner_a: a.id, prisoner_b: b.id, reason: 'Threat', scope: 'cell' })).statusCode).toBe(200);

    const audit = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'keep_apart'), eq(auditLog.entityId, String(pair.id)))).orderBy(auditLog.id);
    expect(audit.map((e) => e.action)).toEqual(['create', 'end']);
    // The end is applied by the administrator who approved it; the request and approval are audited as pending_change.
    expect(audit[1]).toMatchObject({ actor: expect.stringMatching(/^second/), after: { end_reason: 'Moved to another prison' } });
  });

  it('raises one stored Warning naming both prisoners when their trackers meet, and again only after they parted beyond the hysteresis', async () => {
    const a = await addPrisoner(ctx(), 'Nia', 'Stone');
    const b = await addPrisoner(ctx(), 'Olu', 'Park');
    const da = await addDevice(ctx(), { prisoner_id: a.id });
    const db = await addDevice(ctx(), { prisoner_id: b.id });
    expect((await api('POST', '/keep-apart', { prisoner_a: a.id, prisoner_b: b.id, reason: 'Gang related', scope: 'cell' })).statusCode).toBe(200);
    const socket = browserSocket(ctx().baseUrl, ctx().cookie);
    try {
      await connected(socket);
      const base: [number, number] = [51.5, -0.12];
      let t = Date.now() - 60_000;
      const fix = (deviceId: string, metresEast: number) => {
        const [latitude, longitude] = destinationPoint(base[0], base[1], metresEast, 90);
        t += 1000;
        return ctx().app.tracking.submit([{ deviceId, latitude, longitude, recordedAt: new Date(t) }]);
      };
      await fix(da.id, 0);
      await fix(db.id, 40); // 40 m apart: nothing
      const shown = nextEvent<ShowAlertEvent>(socket, 'showAlert', (e) => e.message.includes('must be kept apart'));
      await fix(db.id, 10); // 10 m: a meeting
      const event = await shown;
      expect(event).toMatchObject({ alert_type: 'warning' });
      expect(event.message).toBe(`Olu Park (#${b.id}) and Nia Stone (#${a.id}) must be kept apart and are 10 m from each other`);
      await fix(da.id, 2); // still together
      await fix(db.id, 18); // 16 m: within distance + hysteresis, the same meeting
      await fix(db.id, 12);
      const keepApartAlerts = () =>
        ctx().database.db.select().from(alerts).where(and(eq(alerts.kind, 'keep_apart'), eq(alerts.prisonerId, b.id)));
      expect((await keepApartAlerts()).length).toBe(1);
      await fix(db.id, 30); // 28 m: apart, the meeting ends
      await fix(db.id, 5); // together again: a new meeting
      expect((await keepApartAlerts()).length).toBe(2);
      // Ended, the pair raises nothing.
      const pairs = (await api('GET', `/keep-apart?prisoner_id=${a.id}`)).json().data as KeepApartPair[];
      await writeApproved(ctx(), 'POST', `/keep-apart/${pairs[0]!.id}/end`, { reason: 'Threat withdrawn' });
      await fix(db.id, 40);
      await fix(db.id, 3);
      expect((await keepApartAlerts()).length).toBe(2);
    } finally {
      socket.disconnect();
    }
  });
});
