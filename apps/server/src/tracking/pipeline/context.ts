// What every step of the tracking pipeline shares: the service's options (its ports), the devices in memory, the
// live positions to browsers and the engine's rate-limited failure log. The steps are functions of this context.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { DatabaseHealth } from '../../lib/database-health';
import type { RateLimitedLog } from '../../lib/rate-limited-log';
import type { Realtime } from '../../plugins/realtime';
import type { Cluster } from '../../cluster';
import type { AlertFeed } from '../../cluster/alert-feed';
import type { DeviceRegistry } from '../device-registry';
import type { GeofenceEngineLike } from '../engine-access';
import type { EscortMonitor } from '../escort-monitor';
import type { KeepApartMonitor } from '../keep-apart-monitor';
import type { LivePositions } from '../live-positions';
import type { FixRule } from '../fix-rules';
import type { AlertStore, TrackingMetrics } from '../ports';

export interface TrackingOptions {
  db: Db;
  realtime: Realtime;
  engine: () => GeofenceEngineLike | null;
  log: FastifyBaseLogger;
  /** Database failures are reported here: logged once per kind per interval, without SQL; an outage is announced. */
  databaseHealth: Pick<DatabaseHealth, 'failed'>;
  offlineSeconds: number;
  /** OFFLINE_GRACE_SECONDS: how much longer than offlineSeconds the silence lasts before its alert; none: 0. */
  offlineGraceSeconds?: number;
  /** ZONE_ENTRIES_NEED_ACTION: an Informational zone alert is work, not an event; none: an event. */
  zoneEntriesNeedAction?: boolean;
  /** MAX_FUTURE_SECONDS: how far ahead of the server clock a fix may be dated. */
  maxFutureSeconds?: number;
  /** DEVICE_SECRET_REQUIRED (decision 038): every device sends its secret on every protocol; default true. */
  deviceSecretRequired?: boolean;
  /** Keep-apart pairs on live positions (decision 032); none: no proximity alerts. */
  keepApart?: KeepApartMonitor;
  /** Escorts on live positions (decision 035); none: no unescorted alerts. */
  escorts?: EscortMonitor;
  /** Cluster mode (decision 036): device row locks, shared positions, the leader's offline watcher. */
  cluster?: Pick<Cluster, 'enabled' | 'isLeader' | 'sharePositions' | 'changes' | 'instance' | 'liveInstances'>;
  /** New alerts to every browser of every process, once (decision 039). */
  alerts: Pick<AlertFeed, 'raised'>;
  /** Where alerts are written and ended, and how a stored one is shown (modules/alerts, through composition.ts). */
  alertStore: AlertStore;
  /** The feature modules' fix rules (decision 064); none: no rule runs. */
  fixRules?: readonly FixRule[];
  /** Counters for monitoring (decision 059); none: nothing is counted. */
  metrics?: TrackingMetrics;
}

export interface TrackingContext {
  readonly options: TrackingOptions;
  readonly registry: DeviceRegistry;
  readonly live: LivePositions;
  /** A failing engine fails on every fix: one line per interval, not one per fix. */
  readonly engineFailures: RateLimitedLog;
  /** DEVICE_OFFLINE_SECONDS in ms. */
  readonly offlineMs: number;
  /** OFFLINE_GRACE_SECONDS in ms. */
  readonly offlineGraceMs: number;
  /** Devices gone offline whose alert waits for the grace: when it is due (ms), by device id. */
  readonly offlineAlertsDue: Map<string, number>;
  /** When this process started: the leader judges silence only after a whole threshold of listening. */
  readonly startedAt: number;
}

/** Cluster mode is on (decision 036). */
export const clustered = (ctx: TrackingContext): boolean => !!ctx.options.cluster?.enabled;
