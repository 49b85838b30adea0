import { expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { API_PREFIX, LOCKED_LOGIN_MESSAGE } from '@prison/shared';
import { describeEachEngine } from '../../../test/test-db';
import { TEST_ADMIN, approvedBySecondAdmin, useTestApp } from '../../../test/test-app';
import { auditLog, loginThrottle } from '../../db/schema';
import { createAdmin } from '../admin/admin-service';

describeEachEngine('profile and admins', (engine) => {
  const ctx = useTestApp(engine);
  const login = async (username: string, password: string) =>
    ctx().app.inject({
      method: 'POST',
      url: `${API_PREFIX}/admin/login`,
      payload: { username, password },
      headers: { 'user-agent': 'vitest-browser' },
    });
  const asToken = (token: string, method: string, url: string, payload?: Record<string, unknown>) =>
    ctx().app.inject({
      method: method as 'GET',
      url: `${API_PREFIX}${url}`,
      payload,
      headers: { authorization: `Bearer ${token}` },
    });
  const auditActions = async (entityId: string | number) =>
    (
      await ctx()
        .database.db.select()
        .from(auditLog)
        .where(eq(auditLog.entityId, String(entityId))).orderBy(auditLog.id)
    ).map((e) => e.action);

  it('shows the signed-in admin', async () => {
    const res = await ctx().api('GET', '/profile');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      username: TEST_ADMIN.username,
      name: TEST_ADMIN.name,
      admin_id: expect.any(Number),
    });
  });

  it('changes the password with the current one; other sessions end, this one stays', async () => {
    await createAdmin(ctx().database.db, { username: 'pw-changer', password: 'old password 1' });
    const a = (await login('pw-changer', 'old password 1')).json().token as string;
    const b = (await login('pw-changer', 'old password 1')).json().token as string;

    const wrong = await asToken(a, 'POST', '/profile/password', {
      current_password: 'not it',
      new_password: 'new password 2',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'current_password: is not correct' });
    const short = await asToken(a, 'POST', '/profile/password', {
      current_password: 'old password 1',
      new_password: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/^new_password: new_password must be at least 12 characters/);
    const missing = await asToken(a, 'POST', '/profile/password', { new_password: 'new password 2' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/^current_password/);

    const ok = await asToken(a, 'POST', '/profile/password', {
      current_password: 'old password 1',
      new_password: 'new password 2',
    });
    expect(ok.statusCode).toBe(200);
    expect((await asToken(a, 'GET', '/profile')).statusCode).toBe(200);
    expect((await asToken(b, 'GET', '/profile')).statusCode).toBe(401);
    expect((await login('pw-changer', 'old password 1')).statusCode).toBe(401);
    expect((await login('pw-changer', 'new password 2')).statusCode).toBe(200);
    const profile = (await asToken(a, 'GET', '/profile')).json();
    expect(await auditActions(profile.admin_id)).toContain('admin.password_change');
  });

  it('lists my active sessions, marks this one, and revokes another (404 for unknown or foreign ids)', async () => {
    await createAdmin(ctx().database.db, { username: 'sess-owner', password: 'sessions pass' });
    const mine = (await login('sess-owner', 'sessions pass')).json().token as string;
    const other = (await login('sess-owner', 'sessions pass')).json().token as string;
    const list = await asToken(mine, 'GET', '/profile/sessions');
    expect(list.statusCode).toBe(200);
    const sessions = list.json().sessions as { id: string; current: boolean; user_agent: string; ip: string }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ user_agent: 'vitest-browser', ip: expect.any(String) });
    const otherId = sessions.find((s) => !s.current)!.id;

    // The test admin cannot revoke a session of sess-owner.
    expect((await ctx().api('DELETE', `/profile/sessions/${otherId}`)).statusCode).toBe(404);
    expect((await asToken(mine, 'DELETE', '/profile/sessions/not-a-uuid')).statusCode).toBe(404);

    const revoke = await asToken(mine, 'DELETE', `/profile/sessions/${otherId}`);
    expect(revoke.statusCode).toBe(200);
    expect((await asToken(other, 'GET', '/profile')).statusCode).toBe(401);
    expect((await asToken(mine, 'DELETE', `/profile/sessions/${otherId}`)).statusCode).toBe(404);
    expect((await asToken(mine, 'GET', '/profile/sessions')).json().sessions).toHaveLength(1);
    expect(await auditActions(otherId)).toContain('session.revoke');
  });

  it('creates an admin, refusing bad and duplicate usernames; a new administrator takes effect when a second administrator approves', async () => {
    const res = await ctx().api('POST', '/admins', {
      username: 'new-officer',
      name: 'New Officer',
      password: 'long enough phrase',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({
      username: 'new-officer',
      name: 'New Officer',
      disabled: true,
      locked_until: null,
      active_sessions: 0,
      pending: { target_type: 'admin', kind: 'create', target_name: 'new-officer' },
    });
    expect(res.json().pending_change_id).toBe(res.json().pending.id);
    expect((await login('new-officer', 'long enough phrase')).statusCode).toBe(401);
    // Enabling it by hand is no way round the approval.
    expect((await ctx().api('POST', `/admins/${res.json().id}/enable`)).statusCode).toBe(409);
    await approvedBySecondAdmin(ctx(), res);
    expect((await login('new-officer', 'long enough phrase')).statusCode).toBe(200);
    const dup = await ctx().api('POST', '/admins', { username: 'new-officer', password: 'long enough phrase' });
    expect(dup.statusCode).toBe(409);
    const bad = await ctx().api('POST', '/admins', { username: 'with space', password: 'long enough phrase' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^username/);
    const weak = await ctx().api('POST', '/admins', { username: 'weak', password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toMatch(/^password/);
    const list = await ctx().api('GET', '/admins');
    expect(list.json().admins.map((a: { username: string }) => a.username)).toContain('new-officer');
    expect(await auditActions(res.json().id)).toContain('admin.create');
  });

  it('disables an admin (their sessions end at once), enables them again, and never disables oneself', async () => {
    await createAdmin(ctx().database.db, { username: 'to-disable', password: 'disable me please' });
    const token = (await login('to-disable', 'disable me please')).json().token as string;
    const id = (await asToken(token, 'GET', '/profile')).json().admin_id as number;
    const res = await ctx().api('POST', `/admins/${id}/disable`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ disabled: true, active_sessions: 0 });
    expect((await asToken(token, 'GET', '/profile')).statusCode).toBe(401);
    expect((await login('to-disable', 'disable me please')).statusCode).toBe(401);
    const enabled = await ctx().api('POST', `/admins/${id}/enable`);
    expect(enabled.json()).toMatchObject({ disabled: false });
    expect((await login('to-disable', 'disable me please')).statusCode).toBe(200);

    const self = (await ctx().api('GET', '/profile')).json().admin_id;
    const selfDisable = await ctx().api('POST', `/admins/${self}/disable`);
    expect(selfDisable.statusCode).toBe(400);
    expect(selfDisable.json()).toEqual({ message: 'id: you cannot disable your own account' });
    expect((await ctx().api('POST', '/admins/999999/disable')).statusCode).toBe(404);
    expect((await ctx().api('POST', '/admins/999999/enable')).statusCode).toBe(404);
    expect((await ctx().api('POST', '/admins/abc/disable')).statusCode).toBe(400);
    expect(await auditActions(id)).toEqual(expect.arrayContaining(['admin.disable', 'admin.enable']));
  });

  it('unlocks a locked account', async () => {
    await createAdmin(ctx().database.db, { username: 'locked-out', password: 'right password' });
    for (let i = 0; i < 5; i++) await login('locked-out', `wrong ${i}`);
    const refused = await login('locked-out', 'right password');
    expect(refused.json()).toEqual({ message: LOCKED_LOGIN_MESSAGE });
    const listed = (await ctx().api('GET', '/admins'))
      .json()
      .admins.find((a: { username: string }) => a.username === 'locked-out');
    expect(listed.locked_until).toEqual(expect.any(String));
    const res = await ctx().api('POST', `/admins/${listed.id}/unlock`);
    expect(res.statusCode).toBe(200);
    expect(res.json().locked_until).toBeNull();
    const rows = await ctx()
      .database.db.select()
      .from(loginThrottle)
      .where(sql`${loginThrottle.username} = 'locked-out'`);
    expect(rows).toHaveLength(0);
    expect((await login('locked-out', 'right password')).statusCode).toBe(200);
    expect(await auditActions(listed.id)).toContain('admin.unlock');
    expect((await ctx().api('POST', '/admins/999999/unlock')).statusCode).toBe(404);
  });

  it('needs a session for every route', async () => {
    for (const [method, url] of [
      ['GET', '/profile'],
      ['POST', '/profile/password'],
      ['GET', '/profile/sessions'],
      ['DELETE', '/profile/sessions/x'],
      ['GET', '/admins'],
      ['POST', '/admins'],
      ['POST', '/admins/1/disable'],
      ['POST', '/admins/1/enable'],
      ['POST', '/admins/1/unlock'],
    ] as const) {
      expect((await ctx().app.inject({ method, url: `${API_PREFIX}${url}` })).statusCode, url).toBe(401);
    }
  });
});
