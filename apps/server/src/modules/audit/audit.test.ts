import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { createTestAccount } from '../../../test/test-accounts';
import { describeEachEngine } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp } from '../../../test/test-app';
import { recordAudit } from '../../lib/audit';
import { prisoners } from '../../db/schema';

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

  it('names people and records instead of ids, read now, and lists only the fields an entry changed', async () => {
    const db = ctx().database.db;
    const officer = await createTestAccount(db, { username: 'jsmith', name: 'John Smith', password: 'a names password 1' });
    await db.execute(sql`update admins set role = 'officer' where id = ${officer.id}`);
    const [prisoner] = await db.insert(prisoners).values({ firstName: 'John', lastName: 'Brown', status: 'On Trial' }).returning();
    await recordAudit(
      db,
      { adminId: officer.id, actor: 'jsmith' },
      {
        action: 'prisoner.update',
        entity: 'prisoner',
        entityId: prisoner!.prisonerId,
        before: { first_name: 'John', status: 'On Trial', medical: null },
        after: { first_name: 'John', status: 'Incarcerated', medical: 'Asthma' },
      },
    );
    await recordAudit(db, { adminId: null, actor: 'system' }, { action: 'cell.create', entity: 'cell', entityId: 'Names-1', after: { capacity: 2 } });
    const [changed, created] = (await ctx().api('GET', '/audit?entity=prisoner&actor=jsmith')).json().entries.concat(
      (await ctx().api('GET', '/audit?entity=cell&actor=system')).json().entries,
    );
    expect(changed).toMatchObject({
      actor: 'jsmith',
      actor_label: 'J. Smith (officer)',
      entity_id: String(prisoner!.prisonerId),
      entity_label: `prisoner ${prisoner!.prisonNumber} John Brown`,
      changes: [
        { field: 'status', before: 'On Trial', after: 'Incarcerated' },
        { field: 'medical', before: null, after: 'Asthma' },
      ],
    });
    expect(created).toMatchObject({ actor_label: 'system', entity_label: 'cell Names-1', changes: [{ field: 'capacity', before: null, after: 2 }] });

    // Names are read now, never written into the chained row: a renamed account shows its new name, the chain holds.
    await db.execute(sql`update admins set name = 'Joan Smythe' where id = ${officer.id}`);
    expect((await ctx().api('GET', '/audit?entity=prisoner&actor=jsmith')).json().entries[0].actor_label).toBe('J. Smythe (officer)');
    expect((await ctx().api('GET', '/audit/export?actor=jsmith')).headers['x-audit-chain']).toBe('intact');
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
    expect((await ctx().app.inject({ method: 'GET', url: '/api/v1/audit/export' })).statusCode).toBe(401);
  });

  it('exports the filtered trail as CSV in the chain\'s order, each entry with its hash, under the chain\'s state', async () => {
    const db = ctx().database.db;
    for (const id of ['a', 'b']) {
      await recordAudit(db, { adminId: null, actor: 'exporter', ip: '10.0.0.9' }, { action: 'cell.update', entity: 'cell', entityId: id, after: { note: '=HYPERLINK("x")' } });
    }
    const res = await ctx().api('GET', '/audit/export?actor=exporter');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit-trail-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.headers['x-audit-chain']).toBe('intact');
    const [preamble, table] = res.body.split('\n\n');
    expect(preamble).toContain('Filters,actor=exporter');
    expect(preamble).toContain('Entries,2');
    expect(preamble).toContain('Chain,intact');
    expect(preamble).toMatch(/Chain head,[0-9a-f]{64}/);
    const lines = table!.trim().split('\n');
    expect(lines[0]).toBe('seq,id,at,actor,admin_id,ip,action,entity,entity_id,before,after,hash');
    expect(lines.slice(1).map((line) => line.split(',')[8])).toEqual(['a', 'b']);
    expect(lines[1]).toMatch(/^\d+,\d+,\d{4}-.*,exporter,,10\.0\.0\.9,cell\.update,cell,a,,/);
    expect(lines[1]).toMatch(/,[0-9a-f]{64}$/);
    expect(lines[1]).toContain('""note"":""=HYPERLINK');

    // An entry changed in the database: the next export says the chain is broken and names it.
    await db.execute(sql`update audit_log set actor = 'someone else' where entity_id = 'a' and actor = 'exporter'`);
    const broken = await ctx().api('GET', '/audit/export?entity=cell');
    expect(broken.headers['x-audit-chain']).toBe('broken');
    expect(broken.body).toContain('Chain,BROKEN');
    expect(broken.body).toMatch(/was changed or replaced/);
    await db.execute(sql`update audit_log set actor = 'exporter' where entity_id = 'a' and actor = 'someone else'`);
    expect((await ctx().api('GET', '/audit/export?entity=cell')).headers['x-audit-chain']).toBe('intact');
  });

  it('exports only for the roles that read the audit screen, and refuses bad filters naming the field', async () => {
    expect((await ctx().api('GET', '/audit/export?from=last-week')).json().message).toMatch(/^from/);
    const officer = await createTestAccount(ctx().database.db, { username: 'export-officer', password: 'an officer password 1' });
    await ctx().database.db.execute(sql`update admins set role = 'officer' where id = ${officer.id}`);
    const login = await ctx().app.inject({ method: 'POST', url: '/api/v1/admin/login', payload: { username: 'export-officer', password: 'an officer password 1' } });
    const res = await ctx().app.inject({ method: 'GET', url: '/api/v1/audit/export', headers: { cookie: `auth-token=${login.json().token}` } });
    expect(res.statusCode).toBe(403);
  });
});
