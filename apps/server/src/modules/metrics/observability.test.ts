// What IT watches (decision 103): after a few requests /metrics has the HTTP series by route template, method and
// status with their latency histogram, the escalation deliveries, login failures and lockouts and the build; and the
// log off a terminal is one JSON line per entry with an ISO time and a level name, one line per request at info
// (none for /readyz and /metrics).
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, AUTH_COOKIE } from '@prison/shared';
import { buildApp, type App } from '../../app';
import type { Database } from '../../db/client';
import { loggerOptions } from '../../lib/logger-options';
import { productVersion } from '../../lib/version';
import { sample } from '../../../test/metrics-sample';
import { createTestAccount } from '../../../test/test-accounts';
import { TEST_ADMIN, testConfig, useTestApp } from '../../../test/test-app';
import { createTestDatabase } from '../../../test/test-db';

const TOKEN = 'scrape-token-for-the-observability-test';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A local URL nothing listens at: every webhook sent there is refused. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/hook`;
}

describe('/metrics after a few requests', () => {
  let webhookUrl = '';
  beforeAll(async () => {
    webhookUrl = await closedUrl();
  });
  const ctx = useTestApp('pglite', {
    METRICS_TOKEN: TOKEN,
    get ALERT_WEBHOOK_URL() {
      return webhookUrl;
    },
    ALERT_WEBHOOK_SECRET: 'a-webhook-secret-of-enough-length',
  });
  const scrape = async () =>
    (await ctx().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it('has HTTP requests by route template, method and status, with a latency histogram', async () => {
    for (const id of [90001, 90002, 90003]) expect((await ctx().api('GET', `/prisoner/prisonerid/${id}`)).statusCode).toBe(404);
    expect((await ctx().api('GET', '/prisoner/all')).statusCode).toBe(200);
    await ctx().app.inject({ method: 'GET', url: '/no/such/page/at/all' });
    await ctx().app.inject({ method: 'PROPFIND', url: `${API_PREFIX}/prisoner/all` });
    const text = await scrape();
    const one = { route: `${API_PREFIX}/prisoner/prisonerid/:id`, method: 'GET', status_code: '404' };
    expect(sample(text, 'http_requests_total', one)).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', one)).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...one, le: '+Inf' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_sum', one)).toBeGreaterThan(0);
    expect(sample(text, 'http_requests_total', { route: `${API_PREFIX}/prisoner/all`, method: 'GET', status_code: '200' })).toBe(1);
    // The raw URL never becomes a label: unmatched paths are one series, unknown methods `other`.
    expect(sample(text, 'http_requests_total', { route: 'unmatched', method: 'GET' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total', { method: 'other' })).toBe(1);
    expect(text).not.toContain('90001');
    expect(text).not.toContain('/no/such/page');
  });

  it('has the build, login failures and lockouts, and escalation deliveries', async () => {
    const { version, commit } = productVersion();
    const before = await scrape();
    expect(sample(before, 'prison_build_info', { version, commit })).toBe(1);
    expect(sample(before, 'prison_login_lockouts_total')).toBe(0);
    expect(sample(before, 'prison_escalation_deliveries_total', { channel: 'webhook', outcome: 'failed' })).toBe(0);

    const login = (password: string) =>
      ctx().app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: { username: 'intruder', password } });
    // Five wrong passwords lock the name (the fifth answers 429); the sixth is refused as locked.
    for (let i = 1; i <= 5; i++) expect((await login(`wrong password ${i}`)).statusCode).toBe(i < 5 ? 401 : 429);
    expect((await login('wrong password 6')).statusCode).toBe(429);

    // A test message to the webhook that nobody receives: tried once, failed.
    const sent = await ctx().api('POST', '/escalation/test', {});
    expect(sent.statusCode).toBe(200);
    expect(sent.json<{ deliveries: { status: string }[] }>().deliveries).toMatchObject([{ status: 'failed' }]);

    const text = await scrape();
    expect(sample(text, 'prison_login_failures_total', { reason: 'password' })).toBe(5);
    expect(sample(text, 'prison_login_failures_total', { reason: 'locked' })).toBe(1);
    expect(sample(text, 'prison_login_failures_total', { reason: 'totp' })).toBe(0);
    expect(sample(text, 'prison_login_lockouts_total')).toBe(1);
    expect(sample(text, 'prison_escalation_deliveries_total', { channel: 'webhook', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'prison_escalation_deliveries_total', { channel: 'webhook', outcome: 'sent' })).toBe(0);
    expect(sample(text, 'prison_escalation_deliveries_total', { channel: 'webhook', outcome: 'retrying' })).toBe(0);
  });
});

describe('the log off a terminal', () => {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  let app: App;
  let database: Database;
  let cookie = '';
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          raw.push(line);
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    database = await createTestDatabase('pglite');
    const config = testConfig({ LOG_LEVEL: 'info', METRICS_TOKEN: TOKEN });
    app = await buildApp({ config, database, logger: { ...loggerOptions('info', false), stream } });
    await app.ready();
    await createTestAccount(database.db, TEST_ADMIN);
    const login = await app.inject({ method: 'POST', url: `${API_PREFIX}/admin/login`, payload: TEST_ADMIN });
    cookie = `${AUTH_COOKIE}=${login.json<{ token: string }>().token}`;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('is one JSON object per line with an ISO-8601 UTC time and a level name', () => {
    expect(raw.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(String(line.time)).toMatch(ISO_UTC);
      expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(line.level);
    }
  });

  it('writes exactly one info line per request, with method, route, status, time and account; none for /readyz and /metrics', async () => {
    const from = lines.length;
    expect((await app.inject({ method: 'GET', url: `${API_PREFIX}/prisoner/prisonerid/90042`, headers: { cookie } })).statusCode).toBe(404);
    const written = lines.slice(from);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      level: 'info',
      method: 'GET',
      route: `${API_PREFIX}/prisoner/prisonerid/:id`,
      status: 404,
      responseTime: expect.any(Number),
      account: TEST_ADMIN.username,
      msg: expect.stringMatching(new RegExp(`^GET ${API_PREFIX}/prisoner/prisonerid/:id 404 [\\d.]+ ms ${TEST_ADMIN.username}$`)),
    });
    expect(String(written[0]!.time)).toMatch(ISO_UTC);

    const quiet = lines.length;
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const scraped = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.statusCode).toBe(200);
    expect(lines.slice(quiet)).toEqual([]);
  });
});
