// Heavy questions (investigations, history, replay, exports) declare `config: { heavyQuery: true }`: one account may
// have at most HEAVY_QUERIES_PER_ACCOUNT of them running at once in a process, and the process at most
// HEAVY_QUERIES_TOTAL, so a few investigators never hold every database connection the fixes need; one more answers
// 429 with Retry-After and does no work. The slot is held exactly while the route's handler runs, after access and
// validation.
import type { FastifyInstance, FastifyReply, RouteHandlerMethod } from 'fastify';
import { HttpError } from '../lib/http-errors';
import { RunningPerKey } from '../lib/running-per-key';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A question whose cost grows with the data it reads: counted against the account's running heavy questions. */
    heavyQuery?: boolean;
  }
}

/** Seconds a refused question is asked to wait: about what a heavy question takes on a busy day. */
export const HEAVY_QUERY_RETRY_AFTER_SECONDS = 5;
export const HEAVY_QUERY_LIMIT_MESSAGE = 'Too many heavy questions running for this account: wait for one to finish';
export const HEAVY_QUERY_BUSY_MESSAGE = 'Too many heavy questions running: wait for one to finish';

function refuse(reply: FastifyReply, message: string): never {
  reply.header('retry-after', String(HEAVY_QUERY_RETRY_AFTER_SECONDS));
  throw new HttpError(429, message);
}

export function registerHeavyQueryLimit(app: FastifyInstance, limits: { perAccount: number; total: number }) {
  const running = new RunningPerKey(limits.perAccount);
  const everyone = new RunningPerKey(limits.total);
  app.addHook('onRoute', (route) => {
    if (!route.config?.heavyQuery) return;
    const handler = route.handler as (...args: Parameters<RouteHandlerMethod>) => unknown;
    route.handler = async function limited(this: FastifyInstance, request, reply) {
      // Heavy routes are never public: an account is there (the auth hook answered 401 otherwise).
      const key = String(request.admin?.id ?? request.ip);
      if (!running.take(key)) refuse(reply, HEAVY_QUERY_LIMIT_MESSAGE);
      if (!everyone.take('')) {
        running.give(key);
        refuse(reply, HEAVY_QUERY_BUSY_MESSAGE);
      }
      try {
        return await handler.call(this, request, reply);
      } finally {
        everyone.give('');
        running.give(key);
      }
    };
  });
}
