import { expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE, INVALID_LOGIN_MESSAGE, LOCKED_LOGIN_MESSAGE } from '@prison/shared';
import { describeEachEngine, describeOnPglite } from '../../../test/test-db';
import { TEST_ADMIN, useTestApp } from '../../../test/test-app';
import { createAdmin, ensureFirstAdmin, resetPassword } from './admin-service';

describeEachEngine('admin authentication', (engine) => {
  const ctx = useTestApp(engine);
  const login = (username: string, password: string) =>
    ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password } });

  it('logs in, sets the httpOnly 1-day session cookie and returns the token', async () => {
    const res = await login(TEST_ADMIN.username, TEST_ADMIN.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ isAuthenticated: true, name: TEST_ADMIN.name });
    expect(body.token).toEqual(expect.any(String));
    const cookie = res.cookies.find((c) => c.name === AUTH_COOKIE);
    expect(cookie).toMatchObject({ value: body.token, httpOnly: true, sameSite: 'Lax', maxAge: 86400, path: '/' });
  });

  it('answers 400 naming the missing field', async () => {
    const res = await ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^password/);
  });

  it('refuses a wrong password with the message the form shows', async () => {
    const res = await login(TEST_ADMIN.username, 'wrong password');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: INVALID_LOGIN_MESSAGE });
  });

  it('verifies a live session by cookie and by bearer token', async () => {
    const { app, cookie, token } = ctx();
    const byCookie = await app.inject({ method: 'GET', url: `${API_PREFIX}/admin/verify-token`, headers: { cookie } });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json()).toMatchObject({ isAuthenticated: true, name: TEST_ADMIN.name });
    const byBearer = await app.inject({
      method: 'GET',
      url: `${API_PREFIX}/admin/verify-token`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(byBearer.statusCode).toBe(200);
    const none = await app.inject({ method: 'GET', url: `${API_PREFIX}/admin/verify-token` });
    expect(none.statusCode).toBe(401);
  });

  it('revokes the session on logout: the old token then gets 401', async () => {
    const { app } = ctx();
    const res = await login(TEST_ADMIN.username, TEST_ADMIN.password);
    const token = res.json().token as string;
    const out = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/logout`, headers: { authorization: `Bearer ${token}` } });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === AUTH_COOKIE)?.value).toBe('');
    const verify = await app.inject({
      method: 'GET',
      url: `${API_PREFIX}/admin/verify-token`,
      headers: { cookie: `${AUTH_COOKIE}=${token}` },
    });
    expect(verify.statusCode).toBe(401);
  });

  it('locks a username after five failures in 15 minutes, refusing even the right password', async () => {
    await createAdmin(ctx().database.db, { username: 'locky', password: 'the right one!' });
    for (let i = 0; i < 4; i++) expect((await login('locky', `bad-${i}`)).statusCode).toBe(401);
    const fifth = await login('locky', 'bad-5');
    expect(fifth.json()).toEqual({ message: LOCKED_LOGIN_MESSAGE });
    const sixth = await login('locky', 'bad-6');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual({ message: LOCKED_LOGIN_MESSAGE });
    const right = await login('locky', 'the right one!');
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/locked for 15 minutes/);
    // A password reset by another admin ends the lock.
    await resetPassword(ctx().database.db, 'locky', 'a brand new one');
    expect((await login('locky', 'a brand new one')).statusCode).toBe(200);
  });

  it('creates the first admin only when none exists', async () => {
    const again = await ensureFirstAdmin(ctx().database.db, {});
    expect(again).toEqual({ created: false });
  });

  it('refuses cross-origin writes', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: `${API_PREFIX}/admin/login`,
      payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
      headers: { origin: 'https://evil.example', host: 'localhost:3000' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describeOnPglite('login rate limit per IP address', () => {
  const ctx = useTestApp('pglite', { LOGIN_RATE_LIMIT_PER_MINUTE: 3 });
  it('answers 429 once an address has used up its logins for the minute', async () => {
    const attempt = () =>
      ctx().app.inject({
        method: 'POST',
        url: `${API_PREFIX}/admin/login`,
        payload: { username: `nobody-${Math.random()}`, password: 'x' },
        remoteAddress: '203.0.113.7',
      });
    // useTestApp's own login came from another address, so this one has all three attempts.
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/rate limit/i);
  });
});

describeOnPglite('first admin with a generated password', () => {
  it('is created as `admin` with a printed password', async () => {
    const { createTestDatabase } = await import('../../../test/test-db');
    const database = await createTestDatabase('pglite');
    const first = await ensureFirstAdmin(database.db, {});
    expect(first).toMatchObject({ created: true, username: 'admin' });
    expect(first.generatedPassword?.length).toBeGreaterThanOrEqual(16);
    await database.close();
  });
});
