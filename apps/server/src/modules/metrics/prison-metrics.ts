// The tracking side of the Prometheus registry (decisions 059, 103): the tracking core's counters (through its
// `TrackingMetrics` port) and gauges read from the running parts when Prometheus scrapes, every series of the registry
// (server-metrics.ts made it, with prom-client's process and event-loop defaults) labelled with this process's node
// name. Nothing when METRICS_TOKEN is unset.
import type { FastifyInstance } from 'fastify';
import { and, count, eq, min } from 'drizzle-orm';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { ALERT_TYPES } from '@prison/shared';
import { alerts } from '../../db/schema';
import { newestScheduledBackupAt } from '../../backup/scheduled-backups';
import { registerBackupAge } from './backup-metrics';
import { BROWSERS_ROOM, type RealtimeSocket } from '../../plugins/realtime';
import type { AuthenticatedAdmin } from '../../sessions/session-service';
import { FIX_PROTOCOLS, NO_TRACKING_METRICS, type FixProtocol, type TrackingMetrics } from '../../tracking/ports';

const PROTOCOLS: readonly FixProtocol[] = FIX_PROTOCOLS;
/** From a few ms (a fix raising an alert in its own batch) to the 10 s a stalled database would cost. */
const FIX_TO_ALERT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Adds the tracking series to `app.metricsRegistry` and answers the core's counters (nothing when metrics are off). */
export function createPrisonMetrics(app: FastifyInstance): TrackingMetrics {
  const registry = app.metricsRegistry;
  if (!registry) return NO_TRACKING_METRICS;
  registry.setDefaultLabels({ node: app.cluster.node });
  const registers = [registry];
  countSocketConnections(app);

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
  const storedFrom = new Counter({
    name: 'prison_fixes_stored_by_protocol_total',
    help: 'Fixes committed to the database, by the protocol that brought them (repeats of a stored fix not counted)',
    labelNames: ['protocol'],
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
  const storedBy = Object.fromEntries(PROTOCOLS.map((p) => [p, storedFrom.labels(p)])) as Record<FixProtocol, Counter.Internal>;
  for (const protocol of PROTOCOLS) {
    receivedBy[protocol].inc(0);
    refusedBy[protocol].inc(0);
    storedBy[protocol].inc(0);
  }
  for (const level of ALERT_TYPES) raised.labels(level).inc(0);
  stored.inc(0);

  registerGauges(app, registers);

  return {
    fixesReceived: (protocol, n) => receivedBy[protocol].inc(n),
    fixesRefused: (protocol, n) => refusedBy[protocol].inc(n),
    fixesStored: (n) => stored.inc(n),
    fixesStoredFrom: (protocol, n) => storedBy[protocol].inc(n),
    alertsRaised: (list) => {
      for (const alert of list) raised.labels(alert.alertType).inc();
    },
    fixToAlert: (seconds) => fixToAlert.observe(seconds),
  };
}

/** How long after a socket closed a connection of the same session or device counts as a reconnect. */
const RECONNECT_WINDOW_MS = 5 * 60_000;

/**
 * Counts Socket.IO connections, and reconnects: a browser session or a device connecting again within
 * RECONNECT_WINDOW_MS of its last socket on this process closing (a dropped link, a reload; in a cluster a reconnect
 * that reaches another process counts there as a connection only).
 */
function countSocketConnections(app: FastifyInstance): void {
  const closedAt = new Map<string, number>();
  const identity = (socket: RealtimeSocket): string | null => {
    if (socket.data.kind === 'browser') return `session:${(socket.data.admin as AuthenticatedAdmin).sessionId}`;
    const auth = socket.handshake.auth as Record<string, unknown> | undefined;
    const device = auth?.deviceId ?? auth?.trackingId;
    return typeof device === 'string' || typeof device === 'number' ? `device:${device}` : null;
  };
  app.realtime.io.on('connection', (socket: RealtimeSocket) => {
    const kind = socket.data.kind === 'device' ? 'device' : 'browser';
    const who = identity(socket);
    const now = Date.now();
    const last = who ? closedAt.get(who) : undefined;
    if (who) closedAt.delete(who);
    app.serverMetrics.socketConnected(kind, last !== undefined && now - last <= RECONNECT_WINDOW_MS);
    socket.once('disconnect', () => {
      if (!who) return;
      // Old entries go as new ones come: the map holds the last 5 minutes' closings at most.
      for (const [key, at] of closedAt) {
        if (Date.now() - at <= RECONNECT_WINDOW_MS) break;
        closedAt.delete(key);
      }
      closedAt.set(who, Date.now());
    });
  });
}

/** Gauges read when Prometheus scrapes: nothing of them runs per fix. */
function registerGauges(app: FastifyInstance, registers: Registry[]): void {
  // One query answers both: Prometheus collects the gauges of one scrape in parallel, so the second waits on the first.
  let openCriticals: Promise<{ open: number; oldest: Date | null } | null> | null = null;
  const readOpenCriticals = () =>
    (openCriticals ??= (async () => {
      // While the database is down the last known values stay; prison_database_up says why.
      if (app.databaseHealth.status !== 'ok') return null;
      try {
        const [row] = await app.db
          .select({ open: count(), oldest: min(alerts.createdAt) })
          .from(alerts)
          .where(and(eq(alerts.alertType, 'Critical'), eq(alerts.status, 'New')));
        return { open: row?.open ?? 0, oldest: row?.oldest ?? null };
      } catch (error) {
        app.databaseHealth.failed(error, 'metrics');
        return null;
      }
    })().finally(() => setImmediate(() => (openCriticals = null))));
  new Gauge({
    name: 'prison_open_critical_alerts',
    help: 'Critical alerts not yet acknowledged (the Critical bar)',
    registers,
    async collect() {
      const read = await readOpenCriticals();
      if (read) this.set(read.open);
    },
  });
  new Gauge({
    name: 'prison_open_critical_alert_oldest_seconds',
    help: 'Age of the oldest Critical alert not yet acknowledged (0: none)',
    registers,
    async collect() {
      const read = await readOpenCriticals();
      if (read) this.set(read.oldest ? Math.max(0, (Date.now() - read.oldest.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'prison_escalate_after_seconds',
    help: 'ESCALATE_AFTER_SECONDS: how long a Critical waits for its acknowledgement before it is escalated',
    registers,
  }).set(app.config.ESCALATE_AFTER_SECONDS);
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
  registerBackupAge(app, registers);
  const backupDir = app.config.BACKUP_DIR;
  if (backupDir) {
    // Before the first backup the age counts from this start: a new installation is not in alarm before one is due.
    const started = Date.now();
    new Gauge({
      name: 'prison_backup_last_success_timestamp_seconds',
      help: 'When the newest scheduled backup in BACKUP_DIR was taken (Unix time; this process\'s start while there is none)',
      registers,
      collect() {
        this.set((newestScheduledBackupAt(backupDir)?.getTime() ?? started) / 1000);
      },
    });
    new Gauge({ name: 'prison_backup_interval_seconds', help: 'BACKUP_EVERY_HOURS in seconds: how often a backup is due', registers }).set(
      app.config.BACKUP_EVERY_HOURS * 3600,
    );
  }
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
