// The Prometheus registry of one app (decision 059): the tracking core's counters (through its `TrackingMetrics`
// port), gauges read from the running parts when Prometheus scrapes, and prom-client's process and event-loop
// defaults, every series labelled with this process's node name. Created only when METRICS_TOKEN is set.
import type { FastifyInstance } from 'fastify';
import { and, count, eq } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ALERT_TYPES } from '@prison/shared';
import { alerts } from '../../db/schema';
import { BROWSERS_ROOM } from '../../plugins/realtime';
import { NO_TRACKING_METRICS, type FixProtocol, type TrackingMetrics } from '../../tracking/ports';

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry /metrics answers from; null while METRICS_TOKEN is unset (/metrics is off). */
    metricsRegistry: Registry | null;
  }
}

const PROTOCOLS: readonly FixProtocol[] = ['osmand', 'socketio', 'batch', 'mqtt', 'reader'];
/** From a few ms (a fix raising an alert in its own batch) to the 10 s a stalled database would cost. */
const FIX_TO_ALERT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Creates the registry as `app.metricsRegistry` and answers the core's counters (nothing when metrics are off). */
export function createPrisonMetrics(app: FastifyInstance): TrackingMetrics {
  if (!app.config.METRICS_TOKEN) {
    app.decorate('metricsRegistry', null);
    return NO_TRACKING_METRICS;
  }
  const registry = new Registry();
  registry.setDefaultLabels({ node: app.cluster.node });
  collectDefaultMetrics({ register: registry });
  app.decorate('metricsRegistry', registry);
  const registers = [registry];

  const received = new Counter({
    name: 'prison_fixes_received_total',
    help: 'Fixes the device protocols received',
    labelNames: ['protocol'],
    registers,
  });
  const refused = new Counter({
    name: 'prison_fixes_refused_total',
    help: 'Fixes answered with a refusal (bad input, unknown device or wrong secret, throttled)',
    labelNames: ['protocol'],
    registers,
  });
  const stored = new Counter({
    name: 'prison_fixes_stored_total',
    help: 'Fixes committed to the database (repeats of a stored fix not counted)',
    registers,
  });
  const raised = new Counter({
    name: 'prison_alerts_raised_total',
    help: 'Alerts stored and announced by this process',
    labelNames: ['level'],
    registers,
  });
  const fixToAlert = new Histogram({
    name: 'prison_fix_to_alert_seconds',
    help: 'From the arrival of a fix to the announcement of the alert it raised',
    buckets: FIX_TO_ALERT_BUCKETS,
    registers,
  });
  // Children bound once: an increment on the hot path looks up no labels. Every series exists at zero from the start.
  const receivedBy = Object.fromEntries(PROTOCOLS.map((p) => [p, received.labels(p)])) as Record<
    FixProtocol,
    Counter.Internal
  >;
  const refusedBy = Object.fromEntries(PROTOCOLS.map((p) => [p, refused.labels(p)])) as Record<
    FixProtocol,
    Counter.Internal
  >;
  for (const protocol of PROTOCOLS) {
    receivedBy[protocol].inc(0);
    refusedBy[protocol].inc(0);
  }
  for (const level of ALERT_TYPES) raised.labels(level).inc(0);
  stored.inc(0);

  registerGauges(app, registers);

  return {
    fixesReceived: (protocol, n) => receivedBy[protocol].inc(n),
    fixesRefused: (protocol, n) => refusedBy[protocol].inc(n),
    fixesStored: (n) => stored.inc(n),
    alertsRaised: (list) => {
      for (const alert of list) raised.labels(alert.alertType).inc();
    },
    fixToAlert: (seconds) => fixToAlert.observe(seconds),
  };
}

/** Gauges read when Prometheus scrapes: nothing of them runs per fix. */
function registerGauges(app: FastifyInstance, registers: Registry[]): void {
  new Gauge({
    name: 'prison_open_critical_alerts',
    help: 'Critical alerts not yet acknowledged (the Critical bar)',
    registers,
    async collect() {
      // While the database is down the last known value stays; prison_database_up says why.
      if (app.databaseHealth.status !== 'ok') return;
      try {
        const [row] = await app.db
          .select({ open: count() })
          .from(alerts)
          .where(and(eq(alerts.alertType, 'Critical'), eq(alerts.status, 'New')));
        this.set(row?.open ?? 0);
      } catch (error) {
        app.databaseHealth.failed(error, 'metrics');
      }
    },
  });
  new Gauge({
    name: 'prison_browsers_connected',
    help: 'Logged-in browsers connected to this process (Socket.IO)',
    registers,
    collect() {
      this.set(app.realtime.io.of('/').adapter.rooms.get(BROWSERS_ROOM)?.size ?? 0);
    },
  });
  new Gauge({
    name: 'prison_devices',
    help: 'Registered tracking devices',
    labelNames: ['state'],
    registers,
    collect() {
      this.labels('registered').set(app.tracking.registry.size);
    },
  });
  new Gauge({
    name: 'prison_devices_online',
    help: 'Tracking devices reporting within DEVICE_OFFLINE_SECONDS',
    registers,
    collect() {
      let online = 0;
      for (const device of app.tracking.registry.all()) if (device.online) online++;
      this.set(online);
    },
  });
  new Gauge({
    name: 'prison_write_queue_fixes',
    help: 'Fixes waiting for their batch on the write lane',
    registers,
    collect() {
      this.set(app.tracking.waitingFixes);
    },
  });
  new Gauge({
    name: 'prison_db_pool_connections',
    help: 'PostgreSQL pool connections by state (max: the pool size; PGlite: one connection, no pool)',
    labelNames: ['state'],
    registers,
    collect() {
      const pool = app.database.poolStats?.() ?? { max: 1, total: 1, idle: 0, waiting: 0 };
      this.labels('max').set(pool.max);
      this.labels('open').set(pool.total);
      this.labels('idle').set(pool.idle);
      this.labels('waiting').set(pool.waiting);
    },
  });
  new Gauge({
    name: 'prison_database_up',
    help: 'Whether the database answers (1) or not (0)',
    registers,
    collect() {
      this.set(app.databaseHealth.status === 'ok' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'prison_cluster_leader',
    help: 'Whether this process runs the singleton jobs (always 1 for a single process)',
    registers,
    collect() {
      this.set(app.cluster.isLeader() ? 1 : 0);
    },
  });
  // Cluster mode only: a single process has no Redis or change feed, and a 0 would read as "down".
  if (!app.cluster.enabled) return;
  new Gauge({
    name: 'prison_redis_up',
    help: 'Cluster mode: whether Redis (live fan-out between processes) is connected',
    registers,
    collect() {
      this.set(app.cluster.status()?.redis === 'up' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'prison_change_feed_up',
    help: 'Cluster mode: whether the PostgreSQL change feed is listening',
    registers,
    collect() {
      this.set(app.cluster.status()?.changeFeed === 'up' ? 1 : 0);
    },
  });
}
