import { expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp } from '../../../test/test-app';
import { recordAudit } from '../../lib/audit';

describeEachEngine('audit trail', (engine) => {
  const ctx = useTestApp(engine);

  it('lists entries newest first with who, what, which record, before, after and address', async () => {
    const db = ctx().database.db;
    await recordAudit(
      db,
      { adminId: null, actor: 'auditor-x', ip: '10.0.0.7' },
      {
        action: 'prisoner.update',
        entity: 'prisoner',
        entityId: 42,
        before: { status: 'On Trial' },
        after: { status: 'Incarcerated' },
      },
    );
    await recordAudit(
      db,
      { adminId: null, actor: 'auditor-x' },
      { action: 'prisoner.delete', entity: 'prisoner', entityId: 43 },
    );
    const res = await ctx().api('GET', '/audit?actor=auditor-x');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.entries.map((e: { action: string }) => e.action)).toEqual(['prisoner.delete', 'prisoner.update']);
    expect(body.entries[1]).toMatchObject({
      actor: 'auditor-x',
      entity: 'prisoner',
      entity_id: '42',
      before: { status: 'On Trial' },
      after: { status: 'Incarcerated' },
      ip: '10.0.0.7',
    });
    expect(body.entries[1].at).toMatch(/Z$/);
  });

  it('holds the login of the test admin and filters by action prefix, entity, time and page', async () => {
    const logins = await ctx().api('GET', '/audit?action=login&entity=session');
    expect(logins.json().entries.some((e: { actor: string }) => e.actor === TEST_ADMIN.username)).toBe(true);
    const future = await ctx().api('GET', '/audit?from=2099-01-01T00:00:00Z');
    expect(future.json()).toMatchObject({ entries: [], total: 0, totalPages: 1 });
    const db = ctx().database.db;
    for (let i = 0; i < 5; i++)
      await recordAudit(db, { adminId: null, actor: 'pager' }, { action: 'note.create', entity: 'note', entityId: i });
    const page2 = await ctx().api('GET', '/audit?actor=pager&limit=2&page=2');
    expect(page2.json()).toMatchObject({ currentPage: 2, totalPages: 3, total: 5 });
    expect(page2.json().entries.map((e: { entity_id: string }) => e.entity_id)).toEqual(['2', '1']);
    // A wildcard typed in the filter is matched literally.
    expect((await ctx().api('GET', '/audit?actor=%25')).json().total).toBe(0);
  });

  it('refuses bad filters naming the field', async () => {
    const res = await ctx().api('GET', '/audit?limit=1000');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^limit/);
    const from = await ctx().api('GET', '/audit?from=last-week');
    expect(from.statusCode).toBe(400);
    expect(from.json().message).toMatch(/^from/);
  });

  it('has no route that changes or deletes an entry', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST']) {
      expect((await ctx().api(method, '/audit')).statusCode, method).toBe(404);
      expect((await ctx().api(method, '/audit/1')).statusCode, method).toBe(404);
    }
    const writes = ctx().app.registeredRoutes.filter((r) => r.url.includes('/audit') && r.method !== 'GET');
    expect(writes).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await ctx().app.inject({ method: 'GET', url: '/api/v1/audit' })).statusCode).toBe(401);
  });
});
