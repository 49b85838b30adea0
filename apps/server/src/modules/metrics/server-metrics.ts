// The process's Prometheus registry and the series every part of the server feeds (decision 103): HTTP requests by
// route template, method and status with their latency, escalation deliveries, login failures and lockouts, Socket.IO
// connections and reconnects, and the build. Registered first in buildApp, so the request hook sees every route;
// with METRICS_TOKEN unset there is no registry and every count is a no-op.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EscalationChannel } from '@prison/shared';
import { routeLabel } from '../../lib/route-label';
import { productVersion } from '../../lib/version';

/** What happened to one escalation delivery attempt (the delivery log's states). */
export type DeliveryOutcome = 'sent' | 'failed' | 'retrying' | 'cancelled';
/** Why a login was refused: the password (or an unknown or disabled account), the two-factor code, or a locked name. */
export type LoginFailure = 'password' | 'totp' | 'locked';
export type SocketKind = 'browser' | 'device';

export interface ServerMetrics {
  deliveryFinished(channel: EscalationChannel, outcome: DeliveryOutcome): void;
  /** A refused login; `lockedNow` when this failure locked the name. */
  loginRefused(reason: LoginFailure, lockedNow: boolean): void;
  socketConnected(kind: SocketKind, reconnect: boolean): void;
}

const NO_SERVER_METRICS: ServerMetrics = {
  deliveryFinished: () => undefined,
  loginRefused: () => undefined,
  socketConnected: () => undefined,
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry /metrics answers from; null while METRICS_TOKEN is unset (/metrics is off). */
    metricsRegistry: Registry | null;
    serverMetrics: ServerMetrics;
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** From a cached read (a few ms) to an export or a stalled database (10 s and more). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A method outside the usual ones (a scanner's) is counted as `other`. */
export const methodLabel = (method: string) => (METHODS.has(method) ? method : 'other');

export function registerServerMetrics(app: FastifyInstance): void {
  if (!app.config.METRICS_TOKEN) {
    app.decorate('metricsRegistry', null);
    app.decorate('serverMetrics', NO_SERVER_METRICS);
    return;
  }
  // Its `node` label is set once the cluster part has named this process (prison-metrics.ts).
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  app.decorate('metricsRegistry', registry);
  const registers = [registry];

  const { version, commit } = productVersion();
  new Gauge({ name: 'prison_build_info', help: 'The running build: always 1, its version and commit as labels', labelNames: ['version', 'commit'], registers })
    .labels(version, commit)
    .set(1);

  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route template, method and status', labelNames: ['route', 'method', 'status_code'], registers });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route template, method and status',
    labelNames: ['route', 'method', 'status_code'],
    buckets: HTTP_BUCKETS,
    registers,
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const labels = { route: routeLabel(request), method: methodLabel(request.method), status_code: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });

  const deliveries = new Counter({
    name: 'prison_escalation_deliveries_total',
    help: 'Escalation delivery attempts by channel and outcome (sent, failed for good, retrying, cancelled)',
    labelNames: ['channel', 'outcome'],
    registers,
  });
  const loginFailures = new Counter({ name: 'prison_login_failures_total', help: 'Refused logins by reason (password, totp, locked)', labelNames: ['reason'], registers });
  const lockouts = new Counter({ name: 'prison_login_lockouts_total', help: 'Usernames locked after too many failed logins', registers });
  const connections = new Counter({ name: 'prison_socket_connections_total', help: 'Socket.IO connections opened, by kind (browser, device)', labelNames: ['kind'], registers });
  const reconnects = new Counter({
    name: 'prison_socket_reconnects_total',
    help: 'Socket.IO connections of a browser session or device that was connected to this process within the last 5 minutes',
    labelNames: ['kind'],
    registers,
  });
  // Every series exists at zero from the start: a rate over a missing series is no data, not zero.
  for (const channel of ['email', 'webhook'] as const)
    for (const outcome of ['sent', 'failed', 'retrying', 'cancelled'] as const) deliveries.labels(channel, outcome).inc(0);
  for (const reason of ['password', 'totp', 'locked'] as const) loginFailures.labels(reason).inc(0);
  lockouts.inc(0);
  for (const kind of ['browser', 'device'] as const) {
    connections.labels(kind).inc(0);
    reconnects.labels(kind).inc(0);
  }

  app.decorate('serverMetrics', {
    deliveryFinished: (channel, outcome) => deliveries.labels(channel, outcome).inc(),
    loginRefused: (reason, lockedNow) => {
      loginFailures.labels(reason).inc();
      if (lockedNow) lockouts.inc();
    },
    socketConnected: (kind, reconnect) => {
      connections.labels(kind).inc();
      if (reconnect) reconnects.labels(kind).inc();
    },
  } satisfies ServerMetrics);
}
