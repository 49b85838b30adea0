// Accounts with roles and caseloads (decision 050): POST/PUT/GET /admins take and answer
// role and blocks, blocks must exist, a change reaches the account's sessions at once, the last active administrator
// can be neither demoted nor disabled, and every change is audited.
import { and, desc, eq, inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE, NEEDS_BLOCKS_MESSAGE, forbiddenMessage } from '@prison/shared';
import { admins, auditLog } from '../../db/schema';
import { describeEachEngine } from '../../../test/test-db';
import { useTestApp } from '../../../test/test-app';
import { createAdmin } from '../admin/admin-service';
import { sessionsChanged } from '../../sessions/session-service';

describeEachEngine('accounts: roles and caseloads', (engine) => {
  const ctx = useTestApp(engine);
  let n = 0;
  const password = 'a long passphrase for roles 12';

  // An account created through POST /admins chooses its own password at its first login (decision 054).
  const ownPasswords = new Map<string, string>();
  async function login(username: string) {
    const current = ownPasswords.get(username) ?? password;
    const res = await ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password: current } });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = `${AUTH_COOKIE}=${res.json().token}`;
    const as = (method: string, url: string, payload?: unknown) =>
      ctx().app.inject({ method: method as 'GET', url: `${API_PREFIX}${url}`, payload: payload as object, headers: { cookie } });
    if (res.json().passwordChangeRequired) {
      const chosen = `${password} and then my own choice`;
      const changed = await as('POST', '/profile/password', { current_password: current, new_password: chosen });
      expect(changed.statusCode, changed.body).toBe(200);
      ownPasswords.set(username, chosen);
    }
    return as;
  }

  async function cells() {
    for (const [cell, block] of [['RA-1', 'A'], ['RB-1', 'B']]) {
      await ctx().api('POST', '/cell_controls/cells', { cell_id: cell, block, capacity: 2, security_level: 'Low' });
    }
  }

  it('creates an account with a role and blocks, answers them in the list and at login; no role means administrator', async () => {
    await cells();
    const username = `officer-${++n}`;
    const created = await ctx().api('POST', '/admins', { username, password, role: 'officer', blocks: ['A', 'A'] });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ username, role: 'officer', blocks: ['A'] });
    const listed = (await ctx().api('GET', '/admins')).json().admins.find((a: { username: string }) => a.username === username);
    expect(listed).toMatchObject({ role: 'officer', blocks: ['A'] });
    const asOfficer = await login(username);
    const verify = await asOfficer('GET', '/admin/verify-token');
    expect(verify.json()).toMatchObject({ role: 'officer', blocks: ['A'] });

    const plain = await ctx().api('POST', '/admins', { username: `plain-${++n}`, password });
    expect(plain.json()).toMatchObject({ role: 'administrator', blocks: [] });
    const [audit] = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'admin.create'), eq(auditLog.entityId, String(created.json().id)))).orderBy(auditLog.id);
    expect(audit?.after).toMatchObject({ role: 'officer', blocks: ['A'] });
  });

  it('refuses an unknown role, a block that does not exist and bad block names, naming the field and creating nothing', async () => {
    const before = await ctx().database.db.select().from(admins);
    const cases: [unknown, string][] = [
      [{ role: 'warden' }, 'role'],
      [{ role: 'officer', blocks: ['Z'] }, 'blocks'],
      [{ role: 'officer', blocks: ['A', 'Nowhere'] }, 'blocks'],
      [{ blocks: [''] }, 'blocks'],
      [{ blocks: ['A\u202E'] }, 'blocks'],
      [{ blocks: 'A' }, 'blocks'],
      [{ blocks: Array.from({ length: 201 }, (_, i) => `B${i}`) }, 'blocks'],
    ];
    for (const [extra, field] of cases) {
      const res = await ctx().api('POST', '/admins', { username: `bad-${++n}`, password, ...(extra as object) });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().message).toMatch(new RegExp(`^${field}`));
    }
    expect(await ctx().database.db.select().from(admins)).toEqual(before);
  });

  it('a wing officer needs at least one block: refused with the message at creation and at every edit that leaves none', async () => {
    await cells();
    const db = ctx().database.db;
    const message = `blocks: ${NEEDS_BLOCKS_MESSAGE}`;
    const before = await db.select().from(admins).orderBy(admins.id);
    for (const extra of [{}, { blocks: [] }]) {
      const res = await ctx().api('POST', '/admins', { username: `wingless-${++n}`, password, role: 'officer', ...extra });
      expect([res.statusCode, res.json()], JSON.stringify(extra)).toEqual([400, { message }]);
    }
    expect(await db.select().from(admins).orderBy(admins.id)).toEqual(before);

    const officer = (await ctx().api('POST', '/admins', { username: `wing-${++n}`, password, role: 'officer', blocks: ['A'] })).json();
    const clerk = (await ctx().api('POST', '/admins', { username: `everyblock-${++n}`, password, role: 'records' })).json();
    const stored = await db.select().from(admins).orderBy(admins.id);
    for (const [id, body] of [
      [officer.id, { blocks: [] }],
      [clerk.id, { role: 'officer' }],
      [clerk.id, { role: 'officer', blocks: [] }],
    ] as const) {
      const res = await ctx().api('PUT', `/admins/${id}`, body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([400, { message }]);
    }
    expect(await db.select().from(admins).orderBy(admins.id)).toEqual(stored);
    // With a block it is an officer; another role may still have none (every block).
    expect((await ctx().api('PUT', `/admins/${clerk.id}`, { role: 'officer', blocks: ['B'] })).json()).toMatchObject({ role: 'officer', blocks: ['B'] });
    expect((await ctx().api('PUT', `/admins/${officer.id}`, { role: 'supervisor', blocks: [] })).json()).toMatchObject({ role: 'supervisor', blocks: [] });
  });

  it('PUT /admins/:id changes role, blocks and name; the account\'s session follows at once; audited with before and after', async () => {
    const username = `clerk-${++n}`;
    const { id } = (await ctx().api('POST', '/admins', { username, password, role: 'records' })).json();
    const asClerk = await login(username);
    expect((await asClerk('POST', '/messages', { body: 'Hello' })).json().message).toBe(forbiddenMessage('records', 'messages.post'));

    const changed = await ctx().api('PUT', `/admins/${id}`, { role: 'operator', blocks: ['B'], name: 'Control Room' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ role: 'operator', blocks: ['B'], name: 'Control Room' });
    // The same session, with no new login: the new role applies to its next request.
    expect((await asClerk('POST', '/messages', { body: 'Hello' })).statusCode).toBe(200);
    expect((await asClerk('GET', '/admin/verify-token')).json()).toMatchObject({ role: 'operator', blocks: ['B'] });

    const [entry] = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'admin.update'), eq(auditLog.entityId, String(id))))
      .orderBy(desc(auditLog.id));
    expect(entry?.before).toEqual({ role: 'records', blocks: [], name: username });
    expect(entry?.after).toEqual({ role: 'operator', blocks: ['B'], name: 'Control Room' });

    expect((await ctx().api('PUT', `/admins/${id}`, {})).statusCode).toBe(400);
    expect((await ctx().api('PUT', `/admins/${id}`, { blocks: ['Nowhere'] })).json().message).toMatch(/^blocks/);
    expect((await ctx().api('PUT', '/admins/999999', { role: 'auditor' })).statusCode).toBe(404);
    // Everything but an administrator is refused the accounts API.
    expect((await asClerk('PUT', `/admins/${id}`, { role: 'administrator' })).statusCode).toBe(403);
  });

  it('the last active administrator can be neither demoted nor disabled (409); with another one it can be demoted', async () => {
    const db = ctx().database.db;
    // This file's other administrators step aside, so the test's own is the only active one.
    const me = (await ctx().api('GET', '/profile')).json().admin_id as number;
    const others = (await ctx().api('GET', '/admins')).json().admins.filter(
      (a: { id: number; role: string; disabled: boolean }) => a.id !== me && a.role === 'administrator' && !a.disabled,
    );
    for (const other of others) expect((await ctx().api('POST', `/admins/${other.id}/disable`)).statusCode).toBe(200);

    const before = await db.select().from(admins).where(eq(admins.id, me));
    const demote = await ctx().api('PUT', `/admins/${me}`, { role: 'supervisor' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/last active administrator/);
    expect(await db.select().from(admins).where(eq(admins.id, me))).toEqual(before);

    // A second administrator (made on the command line: one made through the API waits for a second administrator,
    // decision 091): now the first may step down (and is then refused the accounts API).
    const second = `second-admin-${++n}`;
    await createAdmin(db, { username: second, password });
    const asSecond = await login(second);
    expect((await ctx().api('PUT', `/admins/${me}`, { role: 'supervisor' })).statusCode).toBe(200);
    expect((await ctx().api('GET', '/admins')).statusCode).toBe(403);
    // The second is now the last: it cannot demote itself, and the first cannot disable it (not an administrator).
    const secondId = (await asSecond('GET', '/profile')).json().admin_id as number;
    expect((await asSecond('PUT', `/admins/${secondId}`, { role: 'auditor' })).statusCode).toBe(409);
    expect((await ctx().api('POST', `/admins/${secondId}/disable`)).statusCode).toBe(403);
    // Raising the first back waits for an administrator other than the one who asks; none is left, so it stays.
    const raise = await asSecond('PUT', `/admins/${me}`, { role: 'administrator' });
    expect(raise.statusCode, raise.body).toBe(202);
    expect(raise.json()).toMatchObject({ role: 'supervisor', pending: { target_type: 'admin', kind: 'role' } });
    // Back as it was, for the other tests of the file (the raise refused, the role written as before).
    expect((await ctx().api('POST', `/pending-changes/${raise.json().pending.id}/refuse`, {})).statusCode).toBe(200);
    await db.update(admins).set({ role: 'administrator' }).where(eq(admins.id, me));
    sessionsChanged();
    for (const other of others) expect((await ctx().api('POST', `/admins/${other.id}/enable`)).statusCode).toBe(200);
  });

  it('two administrators demoting each other at once leave one administrator', async () => {
    const me = (await ctx().api('GET', '/profile')).json().admin_id as number;
    const active = (await ctx().api('GET', '/admins')).json().admins.filter(
      (a: { id: number; role: string; disabled: boolean }) => a.id !== me && a.role === 'administrator' && !a.disabled,
    );
    for (const other of active) await ctx().api('POST', `/admins/${other.id}/disable`);
    const peer = `peer-${++n}`;
    const { id: peerId } = await createAdmin(ctx().database.db, { username: peer, password });
    const asPeer = await login(peer);
    const [a, b] = await Promise.all([
      ctx().api('PUT', `/admins/${peerId}`, { role: 'auditor' }),
      asPeer('PUT', `/admins/${me}`, { role: 'auditor' }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    // One wins; the other is refused as the last administrator (409) or, demoted meanwhile, as no longer one (403).
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const left = (await ctx().database.db.select().from(admins)).filter((r) => r.role === 'administrator' && !r.disabledAt);
    expect(left.length).toBe(1);
    // Restore (a raise would wait for a second administrator): both administrators again, as before.
    await ctx().database.db.update(admins).set({ role: 'administrator' }).where(inArray(admins.id, [me, peerId]));
    sessionsChanged();
    for (const other of active) await ctx().api('POST', `/admins/${other.id}/enable`);
  });
});
