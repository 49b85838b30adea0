// Single sign-on against a real OpenID provider (oidc-provider on a port of its own) over real HTTP, the app listening
// too: a first login creates the account with the claims' role and blocks, the next login overwrites them, a login
// without a valid role or with only unknown blocks is refused and creates nothing, a disabled account is refused, and
// a tampered state or a replayed code opens no session (decision 052).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { API_PREFIX, AUTH_COOKIE, OIDC_CALLBACK_PATH, OIDC_START_PATH, OIDC_STATUS_PATH } from '@prison/shared';
import { admins, auditLog, cells, oidcLoginAttempts } from '../../db/schema';
import { CookieBrowser } from '../../../test/cookie-browser';
import { startTestOidcProvider, type TestOidcProvider } from '../../../test/oidc-test-provider';
import { startTestApp, type TestContext } from '../../../test/test-app';

let oidc: TestOidcProvider;
let ctx: TestContext;
let base: string;
const client = { clientId: 'prison-control', clientSecret: 'a client secret for the test provider' };

beforeAll(async () => {
  oidc = await startTestOidcProvider();
  ctx = await startTestApp('pglite', {
    OIDC_ISSUER: oidc.issuer,
    OIDC_CLIENT_ID: client.clientId,
    OIDC_CLIENT_SECRET: client.clientSecret,
    LOGIN_RATE_LIMIT_PER_MINUTE: 10_000,
    // An SSO account is exempt: its provider owns the second factor, and it has no password to enrol with.
    REQUIRE_TOTP: true,
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening');
  base = `http://127.0.0.1:${address.port}`;
  oidc.registerClient({ ...client, redirectUris: [`${base}${API_PREFIX}${OIDC_CALLBACK_PATH}`] });
  await ctx.database.db.insert(cells).values([
    { cellId: 'A-101', block: 'A', capacity: 2, securityLevel: 'Low' },
    { cellId: 'B-101', block: 'B', capacity: 2, securityLevel: 'Low' },
  ]);
}, 60_000);

afterAll(async () => {
  await ctx?.app.close();
  await ctx?.database.close();
  await oidc?.close();
});

const isApp = (url: URL) => url.origin === base;
const isCallback = (url: URL) => isApp(url) && url.pathname === `${API_PREFIX}${OIDC_CALLBACK_PATH}`;
/** Where the flow ends: a page of the web app (`/` or `/login?sso=...`), not an API path. */
const isLanding = (url: URL) => isApp(url) && !url.pathname.startsWith(`${API_PREFIX}/`);

/**
 * Clicks "Sign in with single sign-on" and logs in at the provider's pages as `login` (its login form, then its
 * consent form, when it asks). Answers where the browser is sent: the landing page, or with `stopAtCallback` the
 * callback URL the provider sends it to (not requested).
 */
async function signIn(browser: CookieBrowser, login: string, options: { stopAtCallback?: boolean } = {}): Promise<URL> {
  const stopAt = (url: URL) => isLanding(url) || (options.stopAtCallback === true && isCallback(url));
  let result = await browser.navigate(new URL(`${API_PREFIX}${OIDC_START_PATH}`, base), { stopAt });
  for (let step = 0; result.page && step < 4; step++) {
    const { page } = result;
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page.text)?.[1];
    if (!action || !prompt) throw new Error(`unexpected page ${page.url.href} (${page.status}): ${page.text.slice(0, 300)}`);
    const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
    result = await browser.navigate(new URL(action, page.url), { form, stopAt });
  }
  if (!result.stoppedAt) throw new Error(`the flow did not come back: ${JSON.stringify(result.hops.map((h) => h.url.href))}`);
  return result.stoppedAt;
}

/** What verify-token says of the session this browser holds, or null without one. */
async function sessionOf(browser: CookieBrowser) {
  const token = browser.cookie(base, AUTH_COOKIE);
  if (!token) return null;
  const res = await ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/admin/verify-token`, headers: { cookie: `${AUTH_COOKIE}=${token}` } });
  if (res.statusCode !== 200) return null;
  return res.json<{ username: string; name: string; adminId: number; role: string; blocks: string[]; totpEnrolmentRequired: boolean }>();
}

async function accountOfSubject(subject: string) {
  const [row] = await ctx.database.db
    .select()
    .from(admins)
    .where(and(eq(admins.oidcIssuer, oidc.issuer), eq(admins.oidcSubject, subject)));
  return row;
}

async function auditActions(adminId: number) {
  const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.adminId, adminId)).orderBy(auditLog.id);
  return rows.map((row) => ({ action: row.action, before: row.before, after: row.after }));
}

async function refusalsOf(subject: string) {
  const rows = await ctx.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'login.sso_refused'), eq(auditLog.entityId, subject))).orderBy(auditLog.id);
  return rows.map((row) => (row.after as { reason: string }).reason);
}

/** Why the last refused single sign-on was refused, as the audit trail holds it. */
async function lastRefusal() {
  const [row] = await ctx.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, 'login.sso_refused'))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row?.after as { reason: string; why: string } | undefined;
}

describe('single sign-on with OpenID Connect', () => {
  it('tells the login page it is on', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${API_PREFIX}${OIDC_STATUS_PATH}` });
    expect(res.json()).toEqual({ enabled: true });
  });

  it('a first login creates an officer account with the blocks of the claims, and opens a session', async () => {
    oidc.accounts.set('sub-officer-1', { preferred_username: 'officer.one', name: 'Officer One', role: 'officer', blocks: ['A', 'Z'] });
    const browser = new CookieBrowser();
    const landing = await signIn(browser, 'sub-officer-1');

    expect(landing.pathname + landing.search).toBe('/');
    const session = await sessionOf(browser);
    expect(session).toMatchObject({ username: 'officer.one', name: 'Officer One', role: 'officer', blocks: ['A'] });
    // REQUIRE_TOTP is on, and the session still reaches the app at once.
    expect(session!.totpEnrolmentRequired).toBe(false);
    const settings = await ctx.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/settings`,
      headers: { cookie: `${AUTH_COOKIE}=${browser.cookie(base, AUTH_COOKIE)}` },
    });
    expect(settings.statusCode).toBe(200);
    const account = await accountOfSubject('sub-officer-1');
    expect(account).toMatchObject({ id: session!.adminId, username: 'officer.one', role: 'officer', blocks: ['A'] });
    // The attempt cookie is gone, and so is its row: nothing of the login stays behind.
    expect(browser.cookie(base, 'oidc-login')).toBeUndefined();
    expect(await ctx.database.db.select().from(oidcLoginAttempts)).toEqual([]);
    // Created and logged in, audited; block Z does not exist here and is left out, said so in the trail.
    const actions = await auditActions(account!.id);
    expect(actions.map((a) => a.action)).toEqual(['admin.create', 'login']);
    expect(actions[1]!.after).toMatchObject({ single_sign_on: oidc.issuer, role: 'officer', blocks: ['A'], unknown_blocks_ignored: ['Z'] });
  });

  it('logging out sends the browser to the provider\'s end-session endpoint with the ID token as hint, which ends its session there', async () => {
    oidc.accounts.set('sub-leaver', { preferred_username: 'leaver', role: 'officer', blocks: ['A'] });
    const browser = new CookieBrowser();
    await signIn(browser, 'sub-leaver');
    const token = browser.cookie(base, AUTH_COOKIE);
    const res = await ctx.app.inject({ method: 'POST', url: `${API_PREFIX}/admin/logout`, headers: { cookie: `${AUTH_COOKIE}=${token}` } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; end_session_url?: string }>();
    expect(body.message).toBe('Logged out');
    const endSession = new URL(body.end_session_url!);
    expect(endSession.origin).toBe(oidc.issuer);
    expect(endSession.pathname).toBe('/session/end');
    expect(endSession.searchParams.get('client_id')).toBe(client.clientId);
    // The hint is the ID token this login received: issued by the provider to this client for this subject.
    const [, payload] = endSession.searchParams.get('id_token_hint')!.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ iss: oidc.issuer, aud: client.clientId, sub: 'sub-leaver' });
    expect(await sessionOf(browser)).toBeNull();
    // The provider knows the hint and asks its user to confirm the logout (its own page, with its session cookie).
    const atProvider = await browser.navigate(endSession, { stopAt: isLanding });
    expect(atProvider.page?.status).toBe(200);
    expect(atProvider.page?.text).toMatch(/logout/i);

    // A password login's logout has no provider to leave.
    const own = await ctx.api('POST', '/admin/logout');
    expect(own.json()).toEqual({ message: 'Logged out' });
  });

  it('the account has no usable password: the password login refuses it', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/admin/login`,
      payload: { username: 'officer.one', password: 'any password at all' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('a second login with changed claims updates the role and the blocks of the same account', async () => {
    const before = await accountOfSubject('sub-officer-1');
    oidc.accounts.set('sub-officer-1', { preferred_username: 'officer.one', name: 'Officer One', role: 'supervisor', blocks: 'B' });
    const browser = new CookieBrowser();
    const landing = await signIn(browser, 'sub-officer-1');

    expect(landing.pathname).toBe('/');
    expect(await sessionOf(browser)).toMatchObject({ adminId: before!.id, role: 'supervisor', blocks: ['B'] });
    expect(await accountOfSubject('sub-officer-1')).toMatchObject({ id: before!.id, role: 'supervisor', blocks: ['B'] });
    expect(await ctx.database.db.select().from(admins).where(eq(admins.username, 'officer.one'))).toHaveLength(1);
    const change = (await auditActions(before!.id)).find((a) => a.action === 'admin.sso_access');
    expect(change).toMatchObject({ before: { role: 'officer', blocks: ['A'] }, after: { role: 'supervisor', blocks: ['B'] } });
  });

  it.each([
    ['no role claim', 'sub-no-role', { preferred_username: 'no.role', blocks: ['A'] }],
    ['a role that is not one of ours', 'sub-warden', { preferred_username: 'warden.x', role: 'warden' }],
    ['two of our roles at once', 'sub-two-roles', { preferred_username: 'two.roles', role: ['officer', 'administrator'] }],
  ])('a login with %s is refused on /login and creates no account', async (_case, subject, claims) => {
    oidc.accounts.set(subject, claims);
    const browser = new CookieBrowser();
    const landing = await signIn(browser, subject);

    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('sso')).toBe('no_role');
    expect(browser.cookie(base, AUTH_COOKIE)).toBeUndefined();
    expect(await accountOfSubject(subject)).toBeUndefined();
    expect(await refusalsOf(subject)).toEqual(['no_role']);
  });

  it('a caseload of blocks this prison does not have is refused, never widened to every block', async () => {
    oidc.accounts.set('sub-lost', { preferred_username: 'lost.officer', role: 'officer', blocks: ['Q', 'R'] });
    const browser = new CookieBrowser();
    const landing = await signIn(browser, 'sub-lost');

    expect(landing.searchParams.get('sso')).toBe('unknown_blocks');
    expect(await accountOfSubject('sub-lost')).toBeUndefined();
  });

  it.each([
    ['no blocks claim', 'sub-wingless', { preferred_username: 'wingless.officer', role: 'officer' }],
    ['blocks: []', 'sub-empty-wing', { preferred_username: 'empty.wing', role: 'officer', blocks: [] }],
  ])('a wing officer with %s is refused (no_blocks), never given every block, and creates no account', async (_case, subject, claims) => {
    oidc.accounts.set(subject, claims);
    const browser = new CookieBrowser();
    const landing = await signIn(browser, subject);

    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('sso')).toBe('no_blocks');
    expect(browser.cookie(base, AUTH_COOKIE)).toBeUndefined();
    expect(await accountOfSubject(subject)).toBeUndefined();
    expect(await refusalsOf(subject)).toEqual(['no_blocks']);
  });

  it('claims that would demote the last active administrator are refused, and the account stays an administrator', async () => {
    oidc.accounts.set('sub-chief', { preferred_username: 'chief.sso', role: 'administrator' });
    expect((await signIn(new CookieBrowser(), 'sub-chief')).pathname).toBe('/');
    const chief = await accountOfSubject('sub-chief');
    // Every other administrator disabled for the time of the test: the SSO account is the last active one.
    const others = await ctx.database.db
      .update(admins)
      .set({ disabledAt: new Date() })
      .where(and(eq(admins.role, 'administrator'), isNull(admins.disabledAt), ne(admins.id, chief!.id)))
      .returning({ id: admins.id });
    try {
      oidc.accounts.set('sub-chief', { preferred_username: 'chief.sso', role: 'officer', blocks: ['A'] });
      const browser = new CookieBrowser();
      const landing = await signIn(browser, 'sub-chief');
      expect(landing.searchParams.get('sso')).toBe('last_administrator');
      expect(browser.cookie(base, AUTH_COOKIE)).toBeUndefined();
      expect(await accountOfSubject('sub-chief')).toMatchObject({ role: 'administrator', blocks: [] });
    } finally {
      await ctx.database.db.update(admins).set({ disabledAt: null }).where(inArray(admins.id, others.map((o) => o.id)));
    }
    // With another administrator active again, the same claims apply.
    expect((await signIn(new CookieBrowser(), 'sub-chief')).pathname).toBe('/');
    expect(await accountOfSubject('sub-chief')).toMatchObject({ role: 'officer', blocks: ['A'] });
  });

  it('a disabled account is refused', async () => {
    oidc.accounts.set('sub-disabled', { preferred_username: 'soon.disabled', role: 'auditor' });
    expect((await signIn(new CookieBrowser(), 'sub-disabled')).pathname).toBe('/');
    const account = await accountOfSubject('sub-disabled');
    await ctx.database.db.update(admins).set({ disabledAt: new Date() }).where(eq(admins.id, account!.id));

    const browser = new CookieBrowser();
    const landing = await signIn(browser, 'sub-disabled');
    expect(landing.searchParams.get('sso')).toBe('disabled');
    expect(browser.cookie(base, AUTH_COOKIE)).toBeUndefined();
  });

  it('a name another account holds is never linked: the new account takes its subject as username', async () => {
    oidc.accounts.set('sub-impostor', { preferred_username: 'warden', role: 'auditor' });
    const browser = new CookieBrowser();
    expect((await signIn(browser, 'sub-impostor')).pathname).toBe('/');
    expect(await sessionOf(browser)).toMatchObject({ username: 'sub-impostor', role: 'auditor' });
    // The password account named warden is untouched.
    expect(await ctx.database.db.select().from(admins).where(eq(admins.username, 'warden'))).toMatchObject([
      { role: 'administrator', oidcSubject: null },
    ]);
  });

  it('a tampered state is refused and opens no session; the login it belonged to cannot be finished after', async () => {
    oidc.accounts.set('sub-state', { preferred_username: 'state.check', role: 'officer', blocks: ['A'] });
    const browser = new CookieBrowser();
    const callback = await signIn(browser, 'sub-state', { stopAtCallback: true });
    expect(isCallback(callback)).toBe(true);
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);

    const refused = await browser.navigate(tampered, { stopAt: isLanding });
    expect(refused.stoppedAt?.searchParams.get('sso')).toBe('failed');
    expect((await lastRefusal())?.why).toMatch(/state/);
    expect(browser.cookie(base, AUTH_COOKIE)).toBeUndefined();
    // The genuine answer comes too late: the attempt was used up by the refused one.
    const genuine = await browser.navigate(callback, { stopAt: isLanding });
    expect(genuine.stoppedAt?.searchParams.get('sso')).toBe('failed');
    expect((await lastRefusal())?.why).toMatch(/no login in progress/);
    expect(browser.cookie(base, AUTH_COOKIE)).toBeUndefined();
    expect(await accountOfSubject('sub-state')).toBeUndefined();
  });

  it('a callback without the attempt cookie of the browser that started it is refused (login CSRF)', async () => {
    oidc.accounts.set('sub-csrf', { preferred_username: 'csrf.victim', role: 'officer', blocks: ['A'] });
    const attacker = new CookieBrowser();
    const callback = await signIn(attacker, 'sub-csrf', { stopAtCallback: true });
    const victim = new CookieBrowser();
    const landing = await victim.navigate(callback, { stopAt: isLanding });
    expect(landing.stoppedAt?.searchParams.get('sso')).toBe('failed');
    expect((await lastRefusal())?.why).toMatch(/no login in progress/);
    expect(victim.cookie(base, AUTH_COOKIE)).toBeUndefined();
  });

  it('a replayed code is refused: the same callback again, and the used code under a fresh login', async () => {
    oidc.accounts.set('sub-replay', { preferred_username: 'replay.check', role: 'officer', blocks: ['B'] });
    const browser = new CookieBrowser();
    const callback = await signIn(browser, 'sub-replay', { stopAtCallback: true });
    const first = await browser.navigate(callback, { stopAt: isLanding });
    expect(first.stoppedAt?.pathname).toBe('/');
    const account = await accountOfSubject('sub-replay');
    expect(account).toBeDefined();

    // The same return again: its attempt was taken by the first.
    expect((await browser.navigate(callback, { stopAt: isLanding })).stoppedAt?.searchParams.get('sso')).toBe('failed');
    expect((await lastRefusal())?.why).toMatch(/no login in progress/);

    // A fresh login's state and cookie with the old code: the provider refuses the code (used, and another verifier).
    const fresh = new CookieBrowser();
    const start = await fresh.navigate(new URL(`${API_PREFIX}${OIDC_START_PATH}`, base), { stopAt: (url) => url.origin === oidc.issuer });
    const freshState = start.stoppedAt!.searchParams.get('state')!;
    const replay = new URL(callback);
    replay.searchParams.set('state', freshState);
    const replayed = await fresh.navigate(replay, { stopAt: isLanding });
    expect(replayed.stoppedAt?.searchParams.get('sso')).toBe('failed');
    // Refused by the provider at the token endpoint, not by a check of ours.
    expect((await lastRefusal())?.why).toMatch(/invalid_grant/);
    expect(fresh.cookie(base, AUTH_COOKIE)).toBeUndefined();
    const sessions = (await auditActions(account!.id)).filter((a) => a.action === 'login');
    expect(sessions).toHaveLength(1);
  });
});

describe('single sign-on switched off', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await startTestApp('pglite');
  }, 60_000);
  afterAll(async () => {
    await plain?.app.close();
    await plain?.database.close();
  });

  it('says so to the login page, and the start and callback answer 404', async () => {
    const status = await plain.app.inject({ method: 'GET', url: `${API_PREFIX}${OIDC_STATUS_PATH}` });
    expect(status.json()).toEqual({ enabled: false });
    for (const path of [OIDC_START_PATH, OIDC_CALLBACK_PATH]) {
      const res = await plain.app.inject({ method: 'GET', url: `${API_PREFIX}${path}?code=x&state=y` });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toContain('Single sign-on is not configured');
    }
  });
});
