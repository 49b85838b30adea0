// GET /metrics: the Prometheus text format, behind its own bearer token (METRICS_TOKEN; unset: off, 404). Public in
// the access declaration (decision 050) because the token, not a session, decides (decision 059).
import type { FastifyPluginAsync } from 'fastify';
import { bearer, tokenMatches } from '../../lib/bearer-token';

export { tokenMatches };

const metricsRoutes: FastifyPluginAsync = async (app) => {
  const token = app.config.METRICS_TOKEN;
  app.get(
    '/metrics',
    // A scrape every 15 s would fill the info log with request lines: only failures are logged.
    { config: { public: true }, logLevel: 'warn', schema: { hide: true } },
    async (request, reply) => {
      const registry = app.metricsRegistry;
      if (!token || !registry)
        return reply.status(404).send({ message: 'Metrics are off: set METRICS_TOKEN to turn them on' });
      if (!tokenMatches(bearer(request.headers.authorization), token)) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ message: 'A valid bearer token is required' });
      }
      return reply
        .header('content-type', registry.contentType)
        .header('cache-control', 'no-store')
        .send(await registry.metrics());
    },
  );
};

export default metricsRoutes;
