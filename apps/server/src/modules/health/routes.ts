import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Operator probes, outside /api/v1: liveness of the process and readiness of the database. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const status = z.object({ status: z.string() });
  app.get('/healthz', { config: { public: true }, schema: { hide: true, response: { 200: status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: { hide: true, response: { 200: status, 503: status } } }, async (_req, reply) => {
    const ready = await app.database.ping().catch(() => false);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'database unavailable' });
  });
};

export default healthRoutes;
