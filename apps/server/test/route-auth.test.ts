// Default deny by the route that matched: every registered route answers 401 without a session, however its path is
// spelled, except those public by design. The routes come from the app itself, so a route added later is covered
// without editing this file.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { buildApp, type App, type RegisteredRoute } from '../src/app';
import type { Database } from '../src/db/client';
import { admins, auditLog } from '../src/db/schema';
import { createTestDatabase } from './test-db';
import { startTestApp, testConfig, type TestContext } from './test-app';

const PUBLIC_BY_DESIGN = new Set([
  'POST /api/v1/admin/login',
  'GET /api/v1/admin/verify-token', // answers 401 itself without a session
  'GET /api/v1/auth/oidc', // whether single sign-on is on, for the login page (decision 052)
  'GET /api/v1/auth/oidc/start', // single sign-on: to the identity provider
  'GET /api/v1/auth/oidc/callback', // single sign-on: back from it, proven by state, nonce and PKCE
  'GET /api/v1/ingest/osmand', // devices authenticate themselves (decision 006)
  'POST /api/v1/ingest/osmand',
  'POST /api/v1/ingest/positions',
  'POST /api/v1/ingest/traccar', // a Traccar server's forwarder, by its own bearer token (decision 106)
  'POST /api/v1/ingest/sightings', // indoor readers authenticate each message with their secret (decision 067)
  'POST /api/v1/ingest/readers/:id/sightings', // a gateway in its own format sends its reader's secret (Bearer or Basic)
  'GET /healthz',
  'GET /readyz',
  'GET /metrics', // its own bearer token, METRICS_TOKEN (decision 059)
]);

const routeKey = (route: RegisteredRoute) => `${route.method} ${route.url}`;

/** Fastify refuses a path it cannot decode (an overlong UTF-8 slash) before any route, hook or handler runs. */
const refusedAsBadUrl = (res: { statusCode: number; body: string }) => res.statusCode === 400 && res.body.includes('FST_ERR_BAD_URL');

/** A concrete path for a route pattern: parameters become 1, a wildcard becomes a file name. */
function concretePath(url: string): string {
  return url.replace(/:(\w+)/g, '1').replace('*', 'index.css');
}

/** Percent-encodes one character: `a` -> `%61`. */
const encodeChar = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Spellings an attacker tries for one path. Each reaches the same handler as the plain path, or no handler at all;
 * none may reach a handler without the check the plain path gets.
 */
export function spellings(path: string): Record<string, string> {
  const segments = path.split('/').slice(1);
  const encodeFirstCharOf = (index: number) =>
    '/' + segments.map((s, i) => (i === index && s ? encodeChar(s[0]!) + s.slice(1) : s)).join('/');
  const lastDigit = path.search(/\d(?!.*\d)/);
  return {
    plain: path,
    'first letter encoded (%61pi)': encodeFirstCharOf(0),
    'second segment encoded (v%31)':
      segments.length > 1 && lastDigit > 0 ? path.slice(0, lastDigit) + encodeChar(path[lastDigit]!) + path.slice(lastDigit + 1) : encodeFirstCharOf(1),
    'every character encoded': '/' + segments.map((s) => [...s].map(encodeChar).join('')).join('/'),
    'a slash encoded (%2F)': '/' + segments.join('%2F'),
    'a slash encoded lower-case (%2f)': '/' + segments.join('%2f'),
    'doubled slashes': '//' + segments.join('//'),
    'dot segment (./)': '/' + segments.join('/./'),
    'dot-dot segment (x/../)': '/' + segments[0] + '/x/../' + segments.slice(1).join('/'),
    'upper case': path.toUpperCase(),
    'first letter upper case': '/' + (segments[0]?.[0]?.toUpperCase() ?? '') + path.slice(2),
    'trailing slash': `${path}/`,
    'trailing dot': `${path}.`,
    'trailing semicolon parameter': `${path};x=1`,
    'backslashes': path.replaceAll('/', '\\'),
    'encoded backslash': '/' + segments.join('%5C'),
    'overlong UTF-8 slash': '/' + segments.join('%C0%AF'),
    'query string': `${path}?${API_PREFIX}/admin/login`,
    'NUL byte': `${path}%00`,
  };
}

let app: App;
let database: Database;
let ctx: TestContext;
beforeAll(async () => {
  database = await createTestDatabase('pglite');
  app = await buildApp({ config: testConfig(), database, logger: false });
  await app.ready();
  ctx = await startTestApp('pglite');
});
afterAll(async () => {
  await app.close();
  await database.close();
  await ctx.app.close();
  await ctx.database.close();
});

const guardedRoutes = () => app.registeredRoutes.filter((r) => !PUBLIC_BY_DESIGN.has(routeKey(r)));

it('only the routes public by design are marked public', () => {
  const marked = app.registeredRoutes.filter((r) => r.public).map(routeKey);
  expect(marked.sort()).toEqual([...PUBLIC_BY_DESIGN].sort());
});

it('the API documentation is among the guarded routes', () => {
  expect(guardedRoutes().map(routeKey)).toEqual(expect.arrayContaining(['GET /api/docs', 'GET /api/docs/json']));
});

it('every guarded route, however its path is spelled, refuses an anonymous or bad-token request', async () => {
  const guarded = guardedRoutes();
  expect(guarded.length).toBeGreaterThan(50);
  let tried = 0;
  const reached: string[] = [];
  const getStatus = new Map<string, number>();
  for (const route of guarded) {
    const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
    for (const [name, url] of Object.entries(spellings(concretePath(route.url)))) {
      for (const method of methods) {
        for (const headers of [{}, { authorization: 'Bearer not-a-session' }, { cookie: `${AUTH_COOKIE}=not-a-session` }]) {
          const res = await app.inject({
            method: method as 'GET',
            url,
            headers: { 'content-type': 'application/json', ...headers },
            payload: method === 'GET' || method === 'HEAD' ? undefined : '{}',
          });
          tried++;
          // 401: the auth check refused it; 404: nothing matched. Anything else (200, or even a 400 from validation)
          // means a handler's schema or code ran for an anonymous caller. A HEAD answer has no body to read: it must
          // answer as the GET of the same path did.
          const refused =
            method === 'HEAD'
              ? res.statusCode === getStatus.get(url)
              : res.statusCode === 401 || res.statusCode === 404 || refusedAsBadUrl(res);
          if (method === 'GET') getStatus.set(url, refused ? res.statusCode : -1);
          if (!refused) reached.push(`${method} ${url} (${name}) -> ${res.statusCode}`);
        }
      }
    }
  }
  console.log(`route spellings: ${guarded.length} guarded routes, ${tried} anonymous requests, ${reached.length} reached a handler`);
  expect(reached).toEqual([]);
  // Thousands of requests (every route under every spelling): about 7 s alone, several times that beside the rest of
  // the suite on two cores. It checks what is reached, not how fast.
}, 180_000);

it('the reported bypass creates no admin and writes no anonymous audit entry', async () => {
  const before = await database.db.select().from(admins);
  for (const url of ['/%61pi/v1/admins', '/api/v%31/admins', `${API_PREFIX}/admins`]) {
    const res = await app.inject({
      method: 'POST',
      url,
      payload: { username: 'evil', password: 'Evil-Pass-123-long' },
    });
    expect(res.statusCode, url).toBe(401);
  }
  expect(await database.db.select().from(admins)).toEqual(before);
  const entries = await database.db.select().from(auditLog).orderBy(auditLog.id);
  expect(entries.filter((e) => e.actor === 'anonymous')).toEqual([]);
});

it('a cross-origin write is refused under every spelling, with a live session', async () => {
  const writes = ctx.app.registeredRoutes.filter((r) => r.method !== 'GET');
  const passed: string[] = [];
  for (const route of writes) {
    for (const [name, url] of Object.entries(spellings(concretePath(route.url)))) {
      const res = await ctx.app.inject({
        method: route.method as 'POST',
        url,
        headers: { cookie: ctx.cookie, origin: 'https://evil.example', host: 'localhost:3000', 'content-type': 'application/json' },
        payload: '{}',
      });
      if (res.statusCode !== 403 && !refusedAsBadUrl(res)) passed.push(`${route.method} ${url} (${name}) -> ${res.statusCode}`);
    }
  }
  expect(passed).toEqual([]);
});
