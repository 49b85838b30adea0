// /healthz and /readyz, outside /api/v1: whether the process lives and whether it can serve (its database; in a
// cluster its Redis and change feed; its MQTT broker), with the version that answers.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../lib/database-errors';
import { productVersion } from '../../lib/version';

/** Operator probes, outside /api/v1: liveness of the process and readiness of the database. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const status = z.object({ status: z.string() });
  // Cluster mode (decision 036): which process answered, whether it runs the singleton jobs, and whether its links to
  // Redis (live fan-out between processes) and to the change feed are up. Redis down is degraded, not unready: this
  // process still stores fixes, raises alerts and serves the API, so a balancer must keep sending it traffic.
  // The version (package.json and the commit, decision 059) tells IT which build answers.
  const readiness = status.extend({
    version: z.string(),
    commit: z.string(),
    cluster: z
      .object({ mode: z.literal('cluster'), node: z.string(), redis: z.enum(['up', 'down']), leader: z.boolean(), changeFeed: z.enum(['up', 'down']) })
      .optional(),
    /** The indoor readers' MQTT broker when MQTT_URL is set (decision 067): down is degraded, HTTP sightings go on. */
    mqtt: z.enum(['up', 'down']).optional(),
  });
  // Probed every few seconds by a balancer: request lines only for failures, or the log would be mostly probes.
  app.get('/healthz', { config: { public: true }, logLevel: 'warn', schema: { hide: true, response: { 200: status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, logLevel: 'warn', schema: { hide: true, response: { 200: readiness, 503: readiness } } }, async (_req, reply) => {
    const cluster = app.cluster.status() ?? undefined;
    const { version, commit } = productVersion();
    const mqtt = app.fixSourceLinks().find((link) => link.name === 'mqtt')?.state;
    // The probe also tells open browsers at once when the database comes back (or goes).
    if (await app.databaseHealth.probe()) return reply.status(200).send({ status: 'ready', version, commit, cluster, mqtt });
    return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'database unavailable', version, commit, cluster, mqtt });
  });
};

export default healthRoutes;
