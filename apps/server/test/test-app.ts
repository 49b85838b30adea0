// Builds the real app over a fresh test database, with helpers to log in and call the API.
import { afterAll, beforeAll } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { buildApp, type App } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import type { Database } from '../src/db/client';
import { createTestAccount } from './test-accounts';
import { createTestDatabase, type Engine } from './test-db';

export const TEST_ADMIN = { username: 'warden', name: 'Test Warden', password: 'correct horse battery' };

export interface TestContext {
  app: App;
  database: Database;
  /** Cookie header of a logged-in admin. */
  cookie: string;
  token: string;
  /** `app.inject` under /api/v1 as the logged-in admin. */
  api(
    method: string,
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Off here (on by default): the tests of other concerns post OsmAnd fixes by id; the credential tests turn it on
  // (ingest/device-credentials.test.ts, decision 038).
  // No offline grace: the tests of offline alerts keep their timing; the grace has its own test.
  return { ...loadConfig({ DEMO: 'false', LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', DEVICE_SECRET_REQUIRED: 'false', OFFLINE_GRACE_SECONDS: '0' }), ...overrides };
}

export async function startTestApp(engine: Engine, overrides: Partial<Config> = {}): Promise<TestContext> {
  const database = await createTestDatabase(engine);
  const app = await buildApp({ config: testConfig(overrides), database, logger: false });
  await app.ready();
  await createTestAccount(database.db, TEST_ADMIN);
  const login = await app.inject({
    method: 'POST',
    url: `${API_PREFIX}/admin/login`,
    payload: { username: TEST_ADMIN.username, password: TEST_ADMIN.password },
  });
  if (login.statusCode !== 200) throw new Error(`test login failed: ${login.body}`);
  const token = login.json<{ token: string }>().token;
  const cookie = `${AUTH_COOKIE}=${token}`;
  return {
    app,
    database,
    cookie,
    token,
    api: (method, url, payload, headers = {}) =>
      app.inject({
        method: method as 'GET',
        url: `${API_PREFIX}${url}`,
        payload: payload as Record<string, unknown> | undefined,
        headers: { cookie, ...headers },
      }),
  };
}

/** Starts the app before the file's tests and closes it after; read `ctx()` inside tests. */
export function useTestApp(engine: Engine, overrides: Partial<Config> = {}): () => TestContext {
  let context: TestContext | undefined;
  beforeAll(async () => {
    context = await startTestApp(engine, overrides);
  }, 60_000);
  afterAll(async () => {
    await context?.app.close();
    await context?.database.close();
  });
  return () => {
    if (!context) throw new Error('test app not started');
    return context;
  };
}

/**
 * Another administrator, logged in: the second person who approves a change that weakens an alarm (decision 041).
 * Returns an `api` like the context's.
 */
let otherAdmins = 0;
export async function loginAnotherAdmin(ctx: TestContext, username = `second-${++otherAdmins}-${Date.now().toString(36)}`): Promise<TestContext['api']> {
  const password = 'another correct horse battery';
  await createTestAccount(ctx.database.db, { username, name: `Second ${username}`, password });
  const login = await ctx.app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username, password } });
  if (login.statusCode !== 200) throw new Error(`second login failed: ${login.body}`);
  const cookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
  return (method, url, payload, headers = {}) =>
    ctx.app.inject({
      method: method as 'GET',
      url: `${API_PREFIX}${url}`,
      payload: payload as Record<string, unknown> | undefined,
      headers: { cookie, ...headers },
    });
}

const secondAdmins = new WeakMap<TestContext, Promise<TestContext['api']>>();

/** A change that waits for approval (202), approved by another administrator; answers the approval. */
export async function approvedBySecondAdmin(
  ctx: TestContext,
  requested: LightMyRequestResponse,
  second?: TestContext['api'],
): Promise<LightMyRequestResponse> {
  if (requested.statusCode !== 202) throw new Error(`expected a pending change (202), got ${requested.statusCode}: ${requested.body}`);
  if (!second && !secondAdmins.has(ctx)) secondAdmins.set(ctx, loginAnotherAdmin(ctx));
  const approver = second ?? (await secondAdmins.get(ctx)!);
  const { id } = requested.json<{ pending: { id: number } }>().pending;
  const approved = await approver('POST', `/pending-changes/${id}/approve`, {});
  if (approved.statusCode !== 200) throw new Error(`approval failed: ${approved.body}`);
  return approved;
}

/**
 * A write as two administrators make it (decision 041): sent with a reason; when it waits for approval (202), another
 * administrator approves it. Answers the write when it applied at once, else the approval (200 once applied).
 */
export async function writeApproved(
  ctx: TestContext,
  method: 'PUT' | 'DELETE' | 'POST',
  url: string,
  body: Record<string, unknown> = {},
): Promise<LightMyRequestResponse> {
  const asked = await ctx.api(method, url, { ...body, reason: 'Agreed by two administrators in a test' });
  return asked.statusCode === 202 ? approvedBySecondAdmin(ctx, asked) : asked;
}
