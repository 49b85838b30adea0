// Every registered /api/v1 route answers 401 without a session, except those public by design.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_PREFIX } from '@prison/shared';
import { buildApp, type App } from '../src/app';
import type { Database } from '../src/db/client';
import { createTestDatabase } from './test-db';
import { testConfig } from './test-app';

const PUBLIC_BY_DESIGN = new Set([
  'POST /api/v1/admin/login',
  'GET /api/v1/admin/verify-token', // answers 401 itself without a session
  'GET /api/v1/ingest/osmand',
  'POST /api/v1/ingest/osmand',
  'POST /api/v1/ingest/positions',
]);

let app: App;
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase('pglite');
  app = await buildApp({ config: testConfig(), database, logger: false });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

it('only the routes public by design are marked public', () => {
  const publicApi = app.registeredRoutes.filter((r) => r.public && r.url.startsWith(API_PREFIX));
  for (const route of publicApi)
    expect(PUBLIC_BY_DESIGN, `${route.method} ${route.url}`).toContain(`${route.method} ${route.url}`);
});

it('every other /api/v1 route answers 401 without a session', async () => {
  const guarded = app.registeredRoutes.filter(
    (r) => r.url.startsWith(`${API_PREFIX}/`) && !PUBLIC_BY_DESIGN.has(`${r.method} ${r.url}`),
  );
  expect(guarded.length).toBeGreaterThan(0);
  for (const route of guarded) {
    const url = route.url.replace(/:(\w+)/g, '1').replace('*', 'x');
    const res = await app.inject({
      method: route.method as 'GET',
      url,
      payload: route.method === 'GET' ? undefined : {},
    });
    expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
    // A bad or revoked token is no better than none.
    const bad = await app.inject({
      method: route.method as 'GET',
      url,
      headers: { authorization: 'Bearer not-a-session' },
    });
    expect(bad.statusCode, `${route.method} ${route.url} with a bad token`).toBe(401);
  }
});
