// Database outage pieces without a database: which errors mean "unreachable", the rate-limited log, the status and
// the 503 of the error handler. test/database-outage.test.ts proves the whole against a real PostgreSQL stopped.
import { afterEach, describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm';
import { registerErrorHandler } from '../plugins/error-handler';
import { DATABASE_UNAVAILABLE_MESSAGE, databaseUnavailableReason, withoutStatement } from './database-errors';
import { DatabaseHealth } from './database-health';
import { RateLimitedLog } from './rate-limited-log';

const SQL = 'insert into positions (device_id) values ($1)';
const wrapped = (cause: unknown) => new DrizzleQueryError(SQL, ['dev-1'], cause as Error);
const pgError = (code: string, message = 'server error') => Object.assign(new Error(message), { code });

function fakeLog() {
  const lines: { fields: Record<string, unknown>; msg: string }[] = [];
  const log = {
    error: (fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg }),
    info: () => undefined,
    child: () => log,
  };
  return { lines, log: log as never };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('databaseUnavailableReason', () => {
  it('knows a lost or refused connection, a shutting-down or full server, and a connect timeout, through Drizzle', () => {
    const refused = Object.assign(
      new AggregateError([pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5441')]),
      {},
    );
    expect(databaseUnavailableReason(wrapped(refused))).toBe('ECONNREFUSED');
    expect(
      databaseUnavailableReason(wrapped(pgError('57P01', 'terminating connection due to administrator command'))),
    ).toBe('57P01');
    expect(databaseUnavailableReason(wrapped(pgError('57P03', 'the database system is starting up')))).toBe('57P03');
    expect(databaseUnavailableReason(pgError('08006'))).toBe('08006');
    expect(databaseUnavailableReason(pgError('53300', 'too many connections'))).toBe('53300');
    expect(databaseUnavailableReason(wrapped(new Error('Connection terminated unexpectedly')))).toBe(
      'connection terminated',
    );
    expect(databaseUnavailableReason(new Error('timeout exceeded when trying to connect'))).toBe('connection timeout');
  });

  it('leaves bad statements and bad data alone', () => {
    expect(databaseUnavailableReason(wrapped(pgError('22003', 'value out of range')))).toBeNull();
    expect(databaseUnavailableReason(wrapped(pgError('23505', 'duplicate key')))).toBeNull();
    expect(databaseUnavailableReason(new TypeError('x is undefined'))).toBeNull();
  });

  it('never hands on the statement of a Drizzle error', () => {
    const cause = pgError('57P01');
    expect(withoutStatement(wrapped(cause))).toBe(cause);
  });
});

describe('RateLimitedLog', () => {
  it('logs a kind once per interval, then one line with the count of repeats', () => {
    vi.useFakeTimers();
    const { lines, log } = fakeLog();
    const limited = new RateLimitedLog(log, 10_000);
    for (let i = 0; i < 500; i++) limited.error('database unreachable: ECONNREFUSED', { where: 'storing fixes' });
    limited.error('database error 22003: value out of range');
    expect(lines.map((l) => l.msg)).toEqual([
      'database unreachable: ECONNREFUSED',
      'database error 22003: value out of range',
    ]);
    vi.advanceTimersByTime(10_000);
    expect(lines.at(-1)?.msg).toBe('database unreachable: ECONNREFUSED (499 more in the last 10 s)');
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(3);
    limited.error('database unreachable: ECONNREFUSED');
    expect(lines).toHaveLength(4);
    limited.stop();
  });
});

describe('DatabaseHealth', () => {
  it('turns unavailable on the first unreachable failure, tells its listeners once, and turns ok when the probe answers', async () => {
    vi.useFakeTimers();
    let up = false;
    const { lines, log } = fakeLog();
    const health = new DatabaseHealth({
      ping: async () => (up ? true : Promise.reject(pgError('ECONNREFUSED'))),
      log,
      probeMs: 0,
      retryMs: 1_000,
    });
    const seen: string[] = [];
    health.onChange((status) => seen.push(status));
    health.start();
    expect(health.failed(wrapped(pgError('ECONNREFUSED')), 'GET /api/v1/devices')).toBe(true);
    expect(health.failed(wrapped(pgError('57P01')), 'storing fixes')).toBe(true);
    expect(health.failed(wrapped(pgError('22003')), 'POST /api/v1/x')).toBe(false);
    expect(health.status).toBe('unavailable');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(health.status).toBe('unavailable');
    up = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(health.status).toBe('ok');
    expect(seen).toEqual(['unavailable', 'ok']);
    expect(JSON.stringify(lines)).not.toContain('insert into');
    health.stop();
  });
});

describe('error handler', () => {
  it('answers 503 with Retry-After for an unreachable database, 500 for other failures, and logs no SQL', async () => {
    const { lines, log } = fakeLog();
    const app = Fastify();
    app.decorate('databaseHealth', new DatabaseHealth({ ping: async () => true, log, probeMs: 0 }));
    registerErrorHandler(app);
    app.get('/down', async () => Promise.reject(wrapped(pgError('ECONNREFUSED'))));
    app.get('/broken', async () => Promise.reject(wrapped(new TypeError('bad'))));
    const down = await app.inject({ method: 'GET', url: '/down' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toMatch(/^\d+$/);
    expect(down.json()).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE });
    const broken = await app.inject({ method: 'GET', url: '/broken' });
    expect(broken.statusCode).toBe(500);
    expect(JSON.stringify(lines)).not.toContain('insert into');
    expect(lines.map((l) => l.msg)).toEqual(['database unreachable: ECONNREFUSED', 'GET /broken failed']);
    app.databaseHealth.stop();
    await app.close();
  });
});

describe('the app logger', () => {
  it('never writes the statement or parameters of a Drizzle error, whoever logs it', async () => {
    const { buildApp } = await import('../app');
    const { testConfig } = await import('../../test/test-app');
    const { Writable } = await import('node:stream');
    let written = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        written += String(chunk);
        done();
      },
    });
    const database = { db: {}, ping: async () => true, close: async () => undefined, migrate: async () => undefined };
    const app = await buildApp({ config: testConfig(), database: database as never, logger: { level: 'info', stream } });
    app.log.error({ err: wrapped(pgError('22003', 'value out of range for type real')) }, 'something failed');
    await app.close();
    expect(written).toContain('value out of range for type real');
    expect(written).not.toContain('insert into');
    expect(written).not.toContain('dev-1');
  });
});
