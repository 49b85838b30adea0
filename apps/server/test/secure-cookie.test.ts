// Behind a TLS proxy the session cookie is `Secure` (deploy/nginx-tls.conf, decision 061): from the proxy's
// X-Forwarded-Proto when TRUST_PROXY names that proxy, or always with COOKIE_SECURE=true. A forged header from a
// client that is not a trusted proxy changes nothing, and COOKIE_SECURE=false is obeyed.
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '@prison/shared';
import { parseTrustProxy } from '../src/config';
import { TEST_ADMIN, useTestApp, type TestContext } from './test-app';

/** The session cookie a login answers with, the request coming from 127.0.0.1 (inject's address). */
async function sessionCookie(ctx: TestContext, headers: Record<string, string> = {}) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `${API_PREFIX}/admin/login`,
    payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
    headers,
  });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'auth-token');
  expect(cookie).toBeDefined();
  return { cookie: cookie!, header: String(response.headers['set-cookie']) };
}

describe('behind a trusted TLS proxy (TRUST_PROXY names it)', () => {
  const ctx = useTestApp('pglite', { TRUST_PROXY: parseTrustProxy('127.0.0.1') });

  it('sets Secure when the proxy says the request came over HTTPS', async () => {
    const { cookie, header } = await sessionCookie(ctx(), { 'x-forwarded-proto': 'https' });
    expect(cookie.secure).toBe(true);
    expect(header).toMatch(/; Secure/);
  });

  it('leaves Secure off for a request the proxy received over plain HTTP', async () => {
    expect((await sessionCookie(ctx(), { 'x-forwarded-proto': 'http' })).cookie.secure).toBeFalsy();
    expect((await sessionCookie(ctx())).cookie.secure).toBeFalsy();
  });
});

describe('without a trusted proxy', () => {
  const ctx = useTestApp('pglite');

  it('ignores a forwarded scheme (anyone could send it)', async () => {
    expect((await sessionCookie(ctx(), { 'x-forwarded-proto': 'https' })).cookie.secure).toBeFalsy();
  });
});

describe('COOKIE_SECURE', () => {
  const always = useTestApp('pglite', { COOKIE_SECURE: true });
  const never = useTestApp('pglite', { COOKIE_SECURE: false, TRUST_PROXY: parseTrustProxy('127.0.0.1') });

  it('true: Secure also over plain HTTP (a proxy that does not forward the scheme)', async () => {
    const { cookie, header } = await sessionCookie(always());
    expect(cookie.secure).toBe(true);
    expect(header).toMatch(/; Secure/);
  });

  it('false: never Secure, whatever the proxy says', async () => {
    expect((await sessionCookie(never(), { 'x-forwarded-proto': 'https' })).cookie.secure).toBeFalsy();
  });
});
