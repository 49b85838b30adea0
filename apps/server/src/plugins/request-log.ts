// One log line per answered request (decision 103), in place of Fastify's two ("incoming request", "request
// completed"): method, route template, status, time taken and the account. A route declared with `logLevel: 'warn'`
// (/healthz, /readyz, /metrics: probes and scrapes) writes none; errors are logged apart, by the error handler.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeLabel } from '../lib/route-label';

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = routeLabel(request);
    const status = reply.statusCode;
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const account = request.admin?.username ?? null;
    request.log.info(
      { method: request.method, route, status, responseTime, account },
      `${request.method} ${route} ${status} ${responseTime} ms${account ? ` ${account}` : ''}`,
    );
  });
}
