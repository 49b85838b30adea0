// Incidents with a workflow: opened with a window and links, moved reported -> investigating ->
// closed with who and when, invalid steps refused (409) and bad input (400 naming the field) changing nothing,
// links checked against the caseload, every write audited; the spec's /incident/recent still lists them.
import { expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { alerts, auditLog, cells, incidentSteps, incidents, prisoners, staff } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { loginAnotherAdmin, useTestApp } from '../../../test/test-app';
import { createRoleAccounts, sendAs, sessionCookie } from '../../../test/route-access-kit';

const WINDOW = { from: '2026-03-01T08:00:00Z', to: '2026-03-01T09:00:00Z' };

describeEachEngine('incident workflow', (engine) => {
  const ctx = useTestApp(engine);
  const auditOf = async (id: number) =>
    ctx().database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'incident'), eq(auditLog.entityId, String(id)))).orderBy(auditLog.id);

  async function prisonerIn(cellId: string, last: string) {
    const [row] = await ctx().database.db.insert(prisoners).values({ firstName: 'Inc', lastName: last, status: 'Incarcerated', cellId }).returning();
    return row!.prisonerId;
  }
  let fixtures: { a: number; b: number; alertId: number; staffId: number };

  it('opens an incident as reported with its window, links and who; audited; the home page lists it', async () => {
    await ctx().database.db.insert(cells).values([
      { cellId: 'IN-A1', block: 'A', capacity: 4, securityLevel: 'Low' },
      { cellId: 'IN-B1', block: 'B', capacity: 4, securityLevel: 'Low' },
    ]);
    const a = await prisonerIn('IN-A1', 'Adams');
    const b = await prisonerIn('IN-B1', 'Baker');
    const [alert] = await ctx()
      .database.db.insert(alerts)
      .values({ alertType: 'Critical', kind: 'manual', details: 'Fight in the yard', date: '2026-03-01', timestamp: new Date('2026-03-01T08:30:00Z'), prisonerId: a })
      .returning();
    const [guard] = await ctx().database.db.insert(staff).values({ firstName: 'Gill', lastName: 'Guard', role: 'Guard', badgeNumber: 'IN-1' }).returning();
    fixtures = { a, b, alertId: alert!.id, staffId: guard!.staffId };

    const res = await ctx().api('POST', '/incidents', {
      description: 'Fight in the yard',
      window: WINDOW,
      alert_ids: [fixtures.alertId],
      prisoner_ids: [a, b],
      staff_ids: [fixtures.staffId],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({
      status: 'reported',
      window: { from: '2026-03-01T08:00:00.000Z', to: '2026-03-01T09:00:00.000Z' },
      description: 'Fight in the yard',
      prisonerName: 'Inc Adams and Inc Baker',
      guardName: 'Gill Guard',
      steps: [{ status: 'reported', by: 'warden', note: null }],
      alerts: [{ id: fixtures.alertId, alert_type: 'Critical' }],
      prisoners: [{ id: a, name: 'Inc Adams' }, { id: b, name: 'Inc Baker' }],
      staff: [{ id: fixtures.staffId, name: 'Gill Guard' }],
    });
    expect(Math.abs(Date.parse(created.steps[0].at) - Date.now())).toBeLessThan(60_000);
    const audit = await auditOf(created.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', actor: 'warden', after: { status: 'reported', prisoner_ids: [a, b], alert_ids: [fixtures.alertId] } });
    const recent = await ctx().api('GET', '/incident/recent?limit=100');
    expect(recent.json().data.map((i: { id: number }) => i.id)).toContain(created.id);
    // The spec's shape of /incident/recent is unchanged: no workflow field leaks into it.
    expect(Object.keys(recent.json().data[0]).sort()).toEqual(['actionTaken', 'date', 'description', 'guardName', 'id', 'prisonerName', 'time']);
  });

  it('moves reported -> investigating -> closed with who and when; a closed one reopens; wrong steps are 409', async () => {
    const { id } = (await ctx().api('POST', '/incidents', { description: 'Parcel over the wall', window: WINDOW })).json();
    const skip = await ctx().api('PATCH', `/incidents/${id}/status`, { status: 'closed' });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().message).toBe('status: a reported incident cannot move to closed');

    const second = await loginAnotherAdmin(ctx(), 'inc-second');
    expect((await ctx().api('PATCH', `/incidents/${id}/status`, { status: 'investigating' })).statusCode).toBe(200);
    const again = await ctx().api('PATCH', `/incidents/${id}/status`, { status: 'investigating' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('status: the incident is already investigating');
    const closed = await second('PATCH', `/incidents/${id}/status`, { status: 'closed', note: 'Parcel found and logged' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().status).toBe('closed');
    expect(closed.json().steps.map((s: { status: string; by: string; note: string | null }) => [s.status, s.by, s.note])).toEqual([
      ['reported', 'warden', null],
      ['investigating', 'warden', null],
      ['closed', 'inc-second', 'Parcel found and logged'],
    ]);
    expect((await ctx().api('PATCH', `/incidents/${id}/status`, { status: 'investigating', note: 'New footage' })).json().status).toBe('investigating');
    const audit = await auditOf(id);
    expect(audit.map((entry) => [entry.action, entry.actor, (entry.before as { status?: string } | null)?.status ?? null])).toEqual([
      ['create', 'warden', null],
      ['status', 'warden', 'reported'],
      ['status', 'inc-second', 'investigating'],
      ['status', 'warden', 'closed'],
    ]);
    const listed = await ctx().api('GET', '/incidents?status=investigating');
    expect(listed.json().data.map((i: { id: number }) => i.id)).toContain(id);
  });

  it('refuses bad input with a 400 naming the field, an unknown incident with a 404, and changes nothing', async () => {
    const { id } = (await ctx().api('POST', '/incidents', { description: 'Shouting', window: WINDOW })).json();
    const before = await ctx().database.db.select({ n: count() }).from(incidentSteps);
    const cases: [string, string, unknown, string][] = [
      ['PATCH', `/incidents/${id}/status`, { status: 'solved' }, 'status'],
      ['POST', '/incidents', { description: '', window: WINDOW }, 'description'],
      ['POST', '/incidents', { description: 'x', window: { from: WINDOW.to, to: WINDOW.from } }, 'to'],
      ['POST', '/incidents', { description: 'x', window: { from: '2026-03-01T08:00:00Z', to: '2026-03-02T09:00:00Z' } }, 'to'],
      ['POST', '/incidents', { description: 'x', window: WINDOW, prisoner_ids: [999999] }, 'prisoner_ids'],
      ['POST', `/incidents/${id}/links`, { alert_ids: [999999] }, 'alert_ids'],
      ['POST', `/incidents/${id}/links`, { staff_ids: ['a'] }, 'staff_ids'],
      ['POST', `/incidents/${id}/links`, {}, 'body'],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await ctx().api(method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json().message).toContain(field);
    }
    expect((await ctx().api('PATCH', '/incidents/999999/status', { status: 'investigating' })).statusCode).toBe(404);
    expect((await ctx().api('GET', '/incidents/999999')).statusCode).toBe(404);
    expect(await ctx().database.db.select({ n: count() }).from(incidentSteps)).toEqual(before);
    const [row] = await ctx().database.db.select().from(incidents).where(eq(incidents.id, id));
    expect(row!.status).toBe('reported');
  });

  it('links more alerts and people once each, audited; prisoners outside the caseload are unknown to the account', async () => {
    const { id } = (await ctx().api('POST', '/incidents', { description: 'Contraband', window: WINDOW })).json();
    const linked = await ctx().api('POST', `/incidents/${id}/links`, { prisoner_ids: [fixtures.a], alert_ids: [fixtures.alertId] });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().prisoners).toEqual([{ id: fixtures.a, name: 'Inc Adams' }]);
    await ctx().api('POST', `/incidents/${id}/links`, { prisoner_ids: [fixtures.a] });
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['create', 'link']);

    const accounts = await createRoleAccounts(ctx().database, { prefix: 'incident', blocks: { operator: ['B'] } });
    const cookie = await sessionCookie(ctx().database, accounts.operator);
    // About block A's prisoner only: to the block B operator the incident does not exist (decision 093).
    for (const [method, url, body] of [
      ['GET', `/api/v1/incidents/${id}`, undefined],
      ['POST', `/api/v1/incidents/${id}/links`, { prisoner_ids: [fixtures.b] }],
    ] as const) {
      const hidden = await sendAs(ctx().app, cookie, method, url, body);
      expect([hidden.statusCode, hidden.json()]).toEqual([404, { message: `No incident with id ${id}` }]);
    }
    expect((await auditOf(id)).map((entry) => entry.action)).toEqual(['create', 'link']);
    // Once it names block B's prisoner too, the operator reads it without the block A prisoner or their alert.
    const { id: shared } = (await ctx().api('POST', '/incidents', { description: 'Contraband passed on', window: WINDOW, prisoner_ids: [fixtures.a, fixtures.b] })).json();
    const refused = await sendAs(ctx().app, cookie, 'POST', `/api/v1/incidents/${shared}/links`, { prisoner_ids: [fixtures.a] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`prisoner_ids: no prisoner with id ${fixtures.a}`);
    const read = await sendAs(ctx().app, cookie, 'GET', `/api/v1/incidents/${shared}`);
    expect(read.json()).toMatchObject({ prisoners: [{ id: fixtures.b, name: 'Inc Baker' }], alerts: [], prisonerName: 'Inc Baker' });
    expect((await sendAs(ctx().app, cookie, 'POST', `/api/v1/incidents/${shared}/links`, { alert_ids: [] , staff_ids: [fixtures.staffId] })).json().prisoners).toEqual([
      { id: fixtures.b, name: 'Inc Baker' },
    ]);
  });

  it('takes one link back, audited; unknown, unseen and closed are refused and change nothing', async () => {
    const { id } = (
      await ctx().api('POST', '/incidents', { description: 'Linked by mistake', window: WINDOW, prisoner_ids: [fixtures.a, fixtures.b], alert_ids: [fixtures.alertId], staff_ids: [fixtures.staffId] })
    ).json();
    // A block B operator does not see the block A prisoner's link: as if there were none.
    const accounts = await createRoleAccounts(ctx().database, { prefix: 'unlink', blocks: { operator: ['B'] } });
    const cookie = await sessionCookie(ctx().database, accounts.operator);
    const unseen = await sendAs(ctx().app, cookie, 'DELETE', `/api/v1/incidents/${id}/links/prisoner/${fixtures.a}`);
    expect([unseen.statusCode, unseen.json().message]).toEqual([404, `No prisoner ${fixtures.a} is linked to incident ${id}`]);
    const unknown = await ctx().api('DELETE', `/incidents/${id}/links/prisoner/987654`);
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, `No prisoner 987654 is linked to incident ${id}`]);
    expect((await ctx().api('DELETE', `/incidents/${id}/links/cell/1`)).json().message).toMatch(/^kind: /);
    expect((await ctx().api('DELETE', `/incidents/987654/links/staff/${fixtures.staffId}`)).statusCode).toBe(404);

    const removed = await ctx().api('DELETE', `/incidents/${id}/links/prisoner/${fixtures.a}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().prisoners).toEqual([{ id: fixtures.b, name: 'Inc Baker' }]);
    const alertGone = await ctx().api('DELETE', `/incidents/${id}/links/alert/${fixtures.alertId}`);
    expect(alertGone.json().alerts).toEqual([]);
    expect((await auditOf(id)).map((entry) => [entry.action, entry.before])).toEqual([
      ['create', null],
      ['unlink', { kind: 'prisoner', target_id: fixtures.a }],
      ['unlink', { kind: 'alert', target_id: fixtures.alertId }],
    ]);

    // Closed: its links stay until it is reopened.
    await ctx().api('PATCH', `/incidents/${id}/status`, { status: 'investigating' });
    await ctx().api('PATCH', `/incidents/${id}/status`, { status: 'closed' });
    const closed = await ctx().api('DELETE', `/incidents/${id}/links/staff/${fixtures.staffId}`);
    expect([closed.statusCode, closed.json().message]).toEqual([409, 'status: a closed incident keeps its links; reopen it first']);
    expect((await ctx().api('GET', `/incidents/${id}`)).json().staff).toHaveLength(1);
  });
});
