// The heavy-question limit: an account past HEAVY_QUERIES_PER_ACCOUNT running questions gets 429 with Retry-After at
// once (its question does no work); its slot comes back when a question ends, whether it answered or failed; another
// account is not affected; a route that does not declare itself heavy is never counted.
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthenticatedAdmin } from '../sessions/session-service';
import { HEAVY_QUERY_BUSY_MESSAGE, HEAVY_QUERY_LIMIT_MESSAGE, HEAVY_QUERY_RETRY_AFTER_SECONDS, registerHeavyQueryLimit } from './heavy-queries';

/** A question that runs until the test lets it end. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('heavy questions: a limit per account', async () => {
  const app = Fastify();
  app.decorateRequest('admin', null);
  // The account from a header, standing in for the session the auth hook reads.
  app.addHook('onRequest', async (request) => {
    request.admin = { id: Number(request.headers['x-account']) } as AuthenticatedAdmin;
  });
  registerHeavyQueryLimit(app, { perAccount: 2, total: 3 });
  let current = gate();
  let worked = 0;
  app.get('/heavy', { config: { heavyQuery: true } }, async (request) => {
    worked++;
    if (request.query && (request.query as { fail?: string }).fail) throw new Error('failed');
    await current.opened;
    return { ok: true };
  });
  app.get('/light', async () => ({ ok: true }));
  await app.ready();
  afterAll(() => app.close());

  const ask = (account: number, url = '/heavy') => app.inject({ method: 'GET', url, headers: { 'x-account': String(account) } });
  const started = async (count: number) => {
    while (worked < count) await new Promise((r) => setTimeout(r, 5));
  };

  it('the third at once of one account answers 429 with Retry-After and does no work; another account still may', async () => {
    const first = ask(1);
    const second = ask(1);
    await started(2);
    const third = await ask(1);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe(String(HEAVY_QUERY_RETRY_AFTER_SECONDS));
    expect(third.json()).toMatchObject({ message: HEAVY_QUERY_LIMIT_MESSAGE });
    expect(worked).toBe(2);
    expect((await ask(1, '/light')).statusCode).toBe(200);
    const other = ask(2);
    await started(3);
    current.open();
    expect((await first).statusCode).toBe(200);
    expect((await second).statusCode).toBe(200);
    expect((await other).statusCode).toBe(200);
  });

  it('a slot comes back when a question ends, answered or failed', async () => {
    current = gate();
    current.open();
    expect((await ask(1, '/heavy?fail=1')).statusCode).toBe(500);
    expect((await ask(1, '/heavy?fail=1')).statusCode).toBe(500);
    expect((await ask(1, '/heavy?fail=1')).statusCode).toBe(500);
    expect((await ask(1)).statusCode).toBe(200);
  });

  it('past the process total, a question of an account with slots free answers 429 too; its slot is not kept', async () => {
    current = gate();
    const running = [ask(1), ask(1), ask(2)];
    await started(worked + 3);
    const fourth = await ask(3);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ message: HEAVY_QUERY_BUSY_MESSAGE });
    current.open();
    for (const answer of await Promise.all(running)) expect(answer.statusCode).toBe(200);
    current = gate();
    current.open();
    expect((await ask(3)).statusCode).toBe(200);
    expect((await ask(3)).statusCode).toBe(200);
  });
});
