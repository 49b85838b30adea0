// The spec's own client, unchanged (decision 016): it keeps its own readable marker cookie
// `auth-cookie` while the server's httpOnly session cookie is `auth-token`, and it runs behind a proxy (or on another
// origin) that ALLOWED_ORIGINS names. The cookie names are written out here: they are the contract, not a detail.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { API_PREFIX } from '@prison/shared';
import { TEST_ADMIN, useTestApp, type TestContext } from './test-app';
import { browserSocket, connected, useListeningApp } from '../src/tracking/tracking-test-kit';

const SESSION = 'auth-token';
const CLIENT_MARKER = 'auth-cookie';
const PROXIED_CLIENT = 'http://localhost:5173';

async function login(ctx: TestContext, headers: Record<string, string> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: `${API_PREFIX}/admin/login`,
    payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
    headers,
  });
}

function verify(ctx: TestContext, headers: Record<string, string>) {
  return ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/admin/verify-token`, headers });
}

/** Names of the cookies an answer sets (or clears). */
const cookieNames = (response: LightMyRequestResponse) => response.cookies.map((cookie) => cookie.name);

describe('the session cookie is auth-token; auth-cookie belongs to the client', () => {
  const ctx = useTestApp('pglite');

  it('login sets the httpOnly, SameSite=Lax, 1-day auth-token and nothing named auth-cookie', async () => {
    const response = await login(ctx());
    expect(response.statusCode).toBe(200);
    const token = response.json<{ token: string }>().token;
    expect(cookieNames(response)).toEqual([SESSION]);
    expect(response.cookies[0]).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', maxAge: 86400, path: '/' });
  });

  it('authenticates by auth-token or Bearer, never by a client-written auth-cookie', async () => {
    const token = (await login(ctx())).json<{ token: string }>().token;
    expect((await verify(ctx(), { cookie: `${CLIENT_MARKER}=${token}` })).statusCode).toBe(401);
    expect((await verify(ctx(), { cookie: `${SESSION}=${token}` })).statusCode).toBe(200);
    expect((await verify(ctx(), { authorization: `Bearer ${token}` })).statusCode).toBe(200);
    const list = await ctx().app.inject({ method: 'GET', url: `${API_PREFIX}/prisoner/all`, headers: { cookie: `${CLIENT_MARKER}=${token}` } });
    expect(list.statusCode).toBe(401);
  });

  it('ignores the client marker beside the real session cookie, whatever it holds', async () => {
    const token = (await login(ctx())).json<{ token: string }>().token;
    for (const marker of ['anything', token, '']) {
      const cookie = `${CLIENT_MARKER}=${marker}; ${SESSION}=${token}`;
      const response = await verify(ctx(), { cookie });
      expect(response.statusCode, marker).toBe(200);
      expect(cookieNames(response)).toEqual([]);
      const reversed = await verify(ctx(), { cookie: `${SESSION}=${token}; ${CLIENT_MARKER}=${marker}` });
      expect(reversed.statusCode, marker).toBe(200);
    }
  });

  it('logout clears auth-token only, leaving the client marker alone', async () => {
    const token = (await login(ctx())).json<{ token: string }>().token;
    const out = await ctx().app.inject({
      method: 'POST',
      url: `${API_PREFIX}/admin/logout`,
      headers: { cookie: `${CLIENT_MARKER}=${token}; ${SESSION}=${token}` },
    });
    expect(out.statusCode).toBe(200);
    expect(cookieNames(out)).toEqual([SESSION]);
    expect(out.cookies[0]?.value).toBe('');
    // The dead session's 401 clears the session cookie, and still only that one.
    const after = await verify(ctx(), { cookie: `${CLIENT_MARKER}=${token}; ${SESSION}=${token}` });
    expect(after.statusCode).toBe(401);
    expect(cookieNames(after)).toEqual([SESSION]);
  });

  it('documents auth-token as the cookie scheme in the OpenAPI document', async () => {
    const doc = await ctx().app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie: ctx().cookie } });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().components.securitySchemes.cookieAuth).toEqual({ type: 'apiKey', in: 'cookie', name: SESSION });
  });
});

describe('a socket handshake authenticates with auth-token', () => {
  const ctx = useListeningApp('pglite');

  it('connects with auth-token and is refused with only the client marker', async () => {
    const token = ctx().token;
    const browser = browserSocket(ctx().baseUrl, `${CLIENT_MARKER}=anything; ${SESSION}=${token}`);
    await expect(connected(browser)).resolves.toBeUndefined();
    browser.disconnect();
    const markerOnly = browserSocket(ctx().baseUrl, `${CLIENT_MARKER}=${token}`);
    await expect(connected(markerOnly)).rejects.toThrow(/Authentication required/);
    markerOnly.disconnect();
  });
});

/** What a dev or hosting proxy forwards: the page's Origin, Host rewritten to this server's. */
const throughProxy = (origin: string) => ({ origin, host: 'localhost:3000' });

describe('by default a proxied client is another origin', () => {
  const ctx = useTestApp('pglite');

  it('refuses its login 403 and gives its preflight no CORS answer', async () => {
    const response = await login(ctx(), throughProxy(PROXIED_CLIENT));
    expect(response.statusCode).toBe(403);
    expect(cookieNames(response)).toEqual([]);
    const preflight = await ctx().app.inject({
      method: 'OPTIONS',
      url: `${API_PREFIX}/admin/login`,
      headers: { origin: PROXIED_CLIENT, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('still accepts the origin of the app itself (compared by host, as before)', async () => {
    expect((await login(ctx(), { origin: 'http://localhost:3000', host: 'localhost:3000' })).statusCode).toBe(200);
    expect((await login(ctx(), { origin: 'https://localhost:3000', host: 'localhost:3000' })).statusCode).toBe(200);
  });
});

describe('ALLOWED_ORIGINS', () => {
  const ctx = useTestApp('pglite', { ALLOWED_ORIGINS: [PROXIED_CLIENT] });

  it('accepts writes of a listed origin through a proxy, and a login there sets the session cookie', async () => {
    const response = await login(ctx(), throughProxy(PROXIED_CLIENT));
    expect(response.statusCode).toBe(200);
    expect(cookieNames(response)).toEqual([SESSION]);
    expect(response.headers['access-control-allow-origin']).toBe(PROXIED_CLIENT);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    const write = await ctx().api('POST', '/admin/activity', undefined, throughProxy(PROXIED_CLIENT));
    expect(write.statusCode).toBe(200);
  });

  it('refuses every other origin: unlisted, another port, another scheme, null, garbage', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:5174', 'https://localhost:5173', 'http://localhost', 'null', 'http://localhost:5173.evil.example', 'not a url']) {
      const response = await login(ctx(), throughProxy(origin));
      expect(response.statusCode, origin).toBe(403);
      expect(response.json(), origin).toEqual({ message: 'Cross-origin requests are not allowed' });
      expect(response.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    const write = await ctx().api('POST', '/prisoner/add', {}, throughProxy('https://evil.example'));
    expect(write.statusCode).toBe(403);
  });

  it('answers the preflight of a listed origin with that origin and credentials, before any session', async () => {
    const preflight = await ctx().app.inject({
      method: 'OPTIONS',
      url: `${API_PREFIX}/prisoner/all`,
      headers: { origin: PROXIED_CLIENT, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(PROXIED_CLIENT);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('DELETE');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type');
    expect(String(preflight.headers.vary)).toContain('Origin');
  });

  it('refuses the preflight of an unlisted origin and gives its reads no CORS header', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:5174', 'https://localhost:5173']) {
      const preflight = await ctx().app.inject({
        method: 'OPTIONS',
        url: `${API_PREFIX}/admin/login`,
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode, origin).toBe(403);
      expect(preflight.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(preflight.headers['access-control-allow-credentials'], origin).toBeUndefined();
      const read = await ctx().api('GET', '/prisoner/all', undefined, { origin });
      expect(read.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(read.headers['access-control-allow-credentials'], origin).toBeUndefined();
    }
  });
});
