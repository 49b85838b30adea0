import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../lib/database-errors';

/** Operator probes, outside /api/v1: liveness of the process and readiness of the database. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const status = z.object({ status: z.string() });
  app.get('/healthz', { config: { public: true }, schema: { hide: true, response: { 200: status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: { hide: true, response: { 200: status, 503: status } } }, async (_req, reply) => {
    // The probe also tells open browsers at once when the database comes back (or goes).
    if (await app.databaseHealth.probe()) return reply.status(200).send({ status: 'ready' });
    return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'database unavailable' });
  });
};

export default healthRoutes;
