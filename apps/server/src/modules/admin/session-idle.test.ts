// Sessions end after SESSION_IDLE_MINUTES without user activity (background refetches do not count), still after
// 1 day whatever the activity, and every 401 of an ended session says why (finding 4; decision 012).
import { afterEach, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { API_PREFIX, AUTH_COOKIE, SESSION_TTL_SECONDS, sessionEndedMessage } from '@prison/shared';
import { describeEachEngine, describeOnPglite } from '../../../test/test-db';
import { useTestApp, type TestContext } from '../../../test/test-app';
import { admins, sessions } from '../../db/schema';
import { createAdmin, resetPassword } from './admin-service';
import { hashToken } from '../../sessions/session-service';

const PASSWORD = 'Quiet-Harbour-7731';
const MINUTE = 60_000;

let adminCounter = 0;
/** A fresh admin with one session; requests go through the cookie as the web app sends them. */
async function newSession(ctx: TestContext) {
  const username = `idler${++adminCounter}`;
  await createAdmin(ctx.database.db, { username, password: PASSWORD });
  const login = await ctx.app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password: PASSWORD } });
  expect(login.statusCode).toBe(200);
  const token = login.json<{ token: string }>().token;
  const request = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' | 'DELETE' = 'GET') =>
    ctx.app.inject({ method, url: `${API_PREFIX}${url}`, headers: { cookie: `${AUTH_COOKIE}=${token}`, ...headers } });
  const row = async () => (await ctx.database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token))))[0]!;
  return {
    username,
    token,
    /** A request the user caused (a click, a page load). */
    user: (url = '/prisoner/all') => request(url),
    /** A refetch the web app made by itself after a live event. */
    background: (url = '/prisoner/all') => request(url, { 'x-background': '1' }),
    bearer: (url = '/prisoner/all', headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers: { authorization: `Bearer ${token}`, ...headers } }),
    request,
    row,
  };
}

/** Moves this process's clock on (the database's own clock is not used for idle time). */
function advance(ms: number) {
  vi.setSystemTime(Date.now() + ms);
}

describeEachEngine('idle sessions (SESSION_IDLE_MINUTES=1)', (engine) => {
  const ctx = useTestApp(engine, { SESSION_IDLE_MINUTES: 1 });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends a session after a minute without activity: 401 saying why, the cookie dropped, for good', async () => {
    const session = await newSession(ctx());
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await session.user()).statusCode).toBe(200);
    advance(MINUTE + 1_000);
    const refused = await session.user();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: sessionEndedMessage('idle', 1), reason: 'idle' });
    expect(refused.json().message).toBe('Your session ended after 1 minute without activity. Log in again.');
    expect(refused.cookies.find((c) => c.name === AUTH_COOKIE)?.value).toBe('');
    // Revoked in the database: later activity does not revive it, and verify-token says why too.
    expect(await session.row()).toMatchObject({ endReason: 'idle', revokedAt: expect.any(Date) });
    expect((await session.user()).statusCode).toBe(401);
    const verify = await session.user('/admin/verify-token');
    expect(verify.statusCode).toBe(401);
    expect(verify.json()).toEqual({ message: sessionEndedMessage('idle', 1), reason: 'idle' });
  });

  it('background requests do not extend it; requests the user caused and the activity signal do', async () => {
    const session = await newSession(ctx());
    vi.useFakeTimers({ toFake: ['Date'] });
    const loggedInAt = (await session.row()).lastActiveAt.getTime();
    advance(40_000);
    for (let i = 0; i < 3; i++) expect((await session.background()).statusCode).toBe(200);
    expect((await session.row()).lastActiveAt.getTime()).toBe(loggedInAt);
    // A page the user opened: activity.
    expect((await session.user()).statusCode).toBe(200);
    expect((await session.row()).lastActiveAt.getTime()).toBeGreaterThan(loggedInAt);
    advance(40_000);
    // The mouse moved: the web app's signal (80 s after login, 40 s after the last activity).
    expect((await session.request('/admin/activity', {}, 'POST')).statusCode).toBe(200);
    advance(40_000);
    expect((await session.background()).statusCode).toBe(200);
    advance(25_000);
    // 65 s after the signal, with only background requests since: ended.
    const refused = await session.background();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().reason).toBe('idle');
  });

  it('writes the last activity at most every 15 s, not on every request', async () => {
    const session = await newSession(ctx());
    vi.useFakeTimers({ toFake: ['Date'] });
    advance(20_000);
    expect((await session.user()).statusCode).toBe(200);
    const written = (await session.row()).lastActiveAt.getTime();
    for (let i = 0; i < 5; i++) {
      advance(1_000);
      expect((await session.user()).statusCode).toBe(200);
    }
    expect((await session.row()).lastActiveAt.getTime()).toBe(written);
  });

  it('an API client (Bearer) counts every request as activity, even one marked as background', async () => {
    const session = await newSession(ctx());
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 3; i++) {
      advance(40_000);
      expect((await session.bearer('/prisoner/all', { 'x-background': '1' })).statusCode).toBe(200);
    }
    advance(MINUTE + 1_000);
    expect((await session.bearer()).json()).toMatchObject({ reason: 'idle' });
  });

  it('still ends a session 1 day after login, however active it was', async () => {
    const session = await newSession(ctx());
    vi.useFakeTimers({ toFake: ['Date'] });
    advance(SESSION_TTL_SECONDS * 1000 - 30_000);
    // Active a moment ago (written directly: a day of activity every minute would take long).
    await ctx()
      .database.db.update(sessions)
      .set({ lastActiveAt: new Date() })
      .where(eq(sessions.tokenHash, hashToken(session.token)));
    advance(31_000);
    const refused = await session.user();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: sessionEndedMessage('expired', 1), reason: 'expired' });
  });

  it('says why for every other end: logout, revocation, password change or reset, disabled account', async () => {
    const { app } = ctx();
    const loggedOut = await newSession(ctx());
    expect((await loggedOut.request('/admin/logout', {}, 'POST')).statusCode).toBe(200);
    expect((await loggedOut.user()).json()).toEqual({ message: sessionEndedMessage('logout', 1), reason: 'logout' });

    const owner = await newSession(ctx());
    const other = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: owner.username, password: PASSWORD } });
    const otherToken = other.json<{ token: string }>().token;
    const otherId = (await ctx().database.db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(otherToken))))[0]!.id;
    expect((await owner.request(`/profile/sessions/${otherId}`, {}, 'DELETE')).statusCode).toBe(200);
    const revoked = await app.inject({ method: 'GET', url: `${API_PREFIX}/prisoner/all`, headers: { authorization: `Bearer ${otherToken}` } });
    expect(revoked.json()).toMatchObject({ reason: 'revoked', message: sessionEndedMessage('revoked', 1) });

    // The admin CLI's reset-password.
    await resetPassword(ctx().database.db, owner.username, 'Another-Quiet-Harbour-8842');
    expect((await owner.user()).json()).toMatchObject({ reason: 'password_changed' });

    const disabled = await newSession(ctx());
    const [account] = await ctx().database.db.select().from(admins).where(eq(admins.username, disabled.username));
    expect((await ctx().api('POST', `/admins/${account!.id}/disable`)).statusCode).toBe(200);
    expect((await disabled.user()).json()).toEqual({ message: sessionEndedMessage('disabled', 1), reason: 'disabled' });

    // A token that never was a session is only told to log in.
    const stranger = await app.inject({ method: 'GET', url: `${API_PREFIX}/prisoner/all`, headers: { authorization: 'Bearer nope' } });
    expect(stranger.json()).toEqual({ message: 'Authentication required' });
  });
});

describeOnPglite('SESSION_IDLE_MINUTES=0 (a wall display)', () => {
  const ctx = useTestApp('pglite', { SESSION_IDLE_MINUTES: 0 });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never ends a session for idleness, but still after 1 day', async () => {
    const session = await newSession(ctx());
    vi.useFakeTimers({ toFake: ['Date'] });
    advance(23 * 60 * MINUTE);
    expect((await session.background()).statusCode).toBe(200);
    advance(61 * MINUTE);
    expect((await session.background()).json()).toMatchObject({ reason: 'expired' });
  });
});
