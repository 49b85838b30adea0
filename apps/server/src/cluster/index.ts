// Cluster mode (decision 036): REDIS_URL with DATABASE_URL lets several processes serve one prison.
// `app.cluster` is what the rest of the server asks: which process this is, whether it runs the singleton jobs, the
// shared change feed (PostgreSQL LISTEN/NOTIFY), the alert events carried on it (decision 039) and the positions
// other processes stored (through the Socket.IO adapter's server-side events). Without REDIS_URL it answers for a
// single process: leader, changes applied locally, nothing shared.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { ShowAlertEvent } from '@prison/shared';
import type { DbOrTx } from '../db/client';
import { clearCacheAnnouncer, setCacheAnnouncer, type CacheKind } from '../lib/cache-announcer';
import { createAlertFeed, type AlertFeed } from './alert-feed';
import { ChangeFeed } from './change-feed';
import { LeaderLease } from './leader';
import { PositionShare, type SharedPosition } from './position-share';
import { channelPrefix, connectRedisAdapter, type RedisLink, type RedisState } from './redis-link';

export type { SharedPosition } from './position-share';

export interface ClusterStatus {
  mode: 'cluster';
  node: string;
  redis: RedisState;
  leader: boolean;
  changeFeed: 'up' | 'down';
}

export interface Cluster {
  enabled: boolean;
  node: string;
  /**
   * This process instance (the node name and a random part, new at every start): the application_name of its
   * long-lived PostgreSQL connections, so the leader can tell which instances are alive (`liveInstances`), and the
   * writer recorded in `devices.engine_node`.
   */
  instance: string;
  /** The instances connected to the database now. */
  liveInstances(): Promise<string[]>;
  changes: ChangeFeed;
  /** New and changed alerts to every browser of every process, once, through the change feed (decision 039). */
  alerts: AlertFeed;
  /** Runs the singleton jobs (always, for a single process). */
  isLeader(): boolean;
  /** Called when this process becomes the leader (never, for a single process: it always is). */
  onBecomeLeader(handler: () => void): void;
  /** For /readyz; null for a single process. */
  status(): ClusterStatus | null;
  /** Positions this process stored, for the other processes (nothing to do for a single process). */
  sharePositions(positions: SharedPosition[]): void;
  onSharedPositions(handler: (positions: SharedPosition[]) => void): void;
}

/** What the cluster needs from the feature modules; composition.ts passes the implementations. */
export interface ClusterPorts {
  /**
   * Module-level caches: each dropped when another process announces a change of its kind, and all of them (in this
   * order) after a lost change feed.
   */
  cacheInvalidators: { kind: CacheKind; invalidate: () => void }[];
  /** An alert as the live toast shows it, read back by id (modules/alerts). */
  readShowAlertEvent(db: DbOrTx, id: number): Promise<(ShowAlertEvent & { block?: string | null }) | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    cluster: Cluster;
  }
}

const INSTANCE_PREFIX = 'prison:';

export function registerCluster(app: FastifyInstance, ports: ClusterPorts): void {
  const { REDIS_URL, DATABASE_URL } = app.config;
  const enabled = !!REDIS_URL && !!DATABASE_URL;
  const node = app.config.NODE_NAME ?? `${hostname()}:${process.pid}`;
  const instance = `${INSTANCE_PREFIX}${node.slice(0, 40)}:${randomBytes(4).toString('hex')}`;
  const log = app.log.child({ module: 'cluster', node });
  const changes = new ChangeFeed({
    node,
    connectionString: enabled ? DATABASE_URL : undefined,
    applicationName: instance,
    onListening: () => reportFeed(),
    notify: async (channel, payload) => {
      await app.db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    log,
  });
  const leaderHandlers: (() => void)[] = [];
  const leader = enabled
    ? new LeaderLease({ connectionString: DATABASE_URL!, log, applicationName: instance, onChange: (isLeader) => isLeader && leaderHandlers.forEach((handler) => handler()) })
    : null;
  const io = app.realtime.io;
  let redis: RedisLink | null = null;
  const announceCaches = (kind: CacheKind) => void changes.announce(kind);
  const positions = new PositionShare(io, () => redis?.state() === 'up', log);
  const alerts = createAlertFeed(changes, app.realtime, (id) => ports.readShowAlertEvent(app.db, id));
  // The browsers' "Partly live": events of the other processes reach this process only while both Redis (positions,
  // messages) and the change feed (alerts, shared state) are connected. Each process reports its own links.
  const otherProcessesLive = () => redis?.state() === 'up' && changes.connected;
  let reported = false;
  const reportFeed = () => {
    if (!enabled || otherProcessesLive() === reported) return;
    reported = otherProcessesLive();
    app.realtime.toLocalBrowsers().emit('clusterFeed', { otherProcesses: reported ? 'ok' : 'interrupted' });
  };

  if (enabled) {
    // Module-level caches: this process's write is announced; another's drops this process's copy.
    setCacheAnnouncer(announceCaches);
    for (const { kind, invalidate } of ports.cacheInvalidators) changes.on(kind, () => invalidate());
    changes.onResync(() => {
      for (const { invalidate } of ports.cacheInvalidators) invalidate();
    });
    redis = connectRedisAdapter(io, REDIS_URL!, channelPrefix(DATABASE_URL!), log, reportFeed);
    app.realtime.onBrowserConnect((socket) => {
      if (!otherProcessesLive()) socket.emit('clusterFeed', { otherProcesses: 'interrupted' });
    });
    positions.start();
  }

  const cluster: Cluster = {
    enabled,
    node,
    instance,
    liveInstances: async () => {
      const result = (await app.db.execute(
        sql`select distinct application_name as name from pg_stat_activity where datname = current_database() and application_name like ${`${INSTANCE_PREFIX}%`}`,
      )) as unknown as { rows: { name: string }[] };
      return result.rows.map((row) => row.name);
    },
    changes,
    alerts,
    isLeader: () => (leader ? leader.isLeader() : true),
    onBecomeLeader: (handler) => leaderHandlers.push(handler),
    status: () =>
      enabled
        ? { mode: 'cluster', node, redis: redis?.state() ?? 'down', leader: leader?.isLeader() ?? false, changeFeed: changes.connected ? 'up' : 'down' }
        : null,
    sharePositions: (shared) => {
      if (enabled && shared.length > 0) positions.share(shared);
    },
    onSharedPositions: (handler) => positions.onPositions(handler),
  };
  app.decorate('cluster', cluster);

  app.addHook('onReady', async () => {
    await changes.start();
    await leader?.start();
    if (enabled) log.info('cluster mode: PostgreSQL for state and the leader lock, Redis for live fan-out');
  });
  app.addHook('onClose', async () => {
    if (enabled) clearCacheAnnouncer(announceCaches);
    positions.stop();
    await leader?.stop();
    await changes.stop();
    await redis?.close();
  });
}
