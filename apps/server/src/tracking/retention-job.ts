// Retention: fixes older than POSITION_RETENTION_DAYS go daily (and once at start) a whole day partition at a time
// (position-partitions.ts), which also makes the days ahead and packs the closed days' indexes; so do resolved alerts when ALERT_RETENTION_DAYS is set
// and audit entries older than AUDIT_RETENTION_DAYS (a year by default; retention-records.ts), in batches.
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../db/client';
import { recordAudit, SYSTEM_ACTOR } from '../lib/audit';
import { deleteExpiredDefaultRows, dropExpiredPartitions, ensurePositionPartitions, packClosedDays } from './position-partitions';
import { deleteExpiredAlerts, deleteExpiredAudit } from './retention-records';

export const RETENTION_INTERVAL_MS = 24 * 60 * 60 * 1000;
const DEFAULT_BATCH_SIZE = 10_000;

/**
 * Drops the day partitions wholly older than now minus `retentionDays` and deletes the default partition's expired
 * fixes (batchSize at a time); makes the days ahead and moves the default's kept fixes into their days. Answers how
 * many fixes went.
 */
export async function deleteExpiredPositions(
  db: DbOrTx,
  retentionDays: number,
  { batchSize = DEFAULT_BATCH_SIZE, now = new Date() }: { batchSize?: number; now?: Date } = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const deleted = (await dropExpiredPartitions(db, cutoff)) + (await deleteExpiredDefaultRows(db, cutoff, batchSize));
  await ensurePositionPartitions(db, { now, keepFrom: cutoff });
  if (deleted > 0) {
    await recordAudit(db, SYSTEM_ACTOR, {
      action: 'retention.delete',
      entity: 'positions',
      after: { deleted, recorded_before: cutoff.toISOString(), retention_days: retentionDays },
    });
  }
  return deleted;
}

/** One pass over every kind of record with a retention; returns how many rows were deleted in all. */
async function retentionPass(app: FastifyInstance): Promise<number> {
  const { POSITION_RETENTION_DAYS, ALERT_RETENTION_DAYS, AUDIT_RETENTION_DAYS } = app.config;
  const positions = await deleteExpiredPositions(app.db, POSITION_RETENTION_DAYS);
  const packed = await packClosedDays(app.db);
  if (packed.length > 0) app.log.info({ packed }, 'retention: closed days packed');
  const alerts = ALERT_RETENTION_DAYS === undefined ? 0 : await deleteExpiredAlerts(app.db, app.tracking.alertStore, ALERT_RETENTION_DAYS);
  const audit = await deleteExpiredAudit(app.db, AUDIT_RETENTION_DAYS);
  if (positions + alerts + audit > 0) app.log.info({ positions, alerts, audit }, 'retention: old records deleted');
  return positions + alerts + audit;
}

export interface RetentionJob {
  /** Runs one pass now (the scheduled passes call this too); never runs two passes at once. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts the daily job with a first pass right away. */
export function startRetentionJob(app: FastifyInstance, intervalMs = RETENTION_INTERVAL_MS): RetentionJob {
  let running: Promise<number> | null = null;
  let stopped = false;
  const runNow = () => {
    if (stopped) return Promise.resolve(0);
    running ??= retentionPass(app)
      .catch((error: unknown) => {
        app.databaseHealth.failed(error, 'retention pass');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  // In a cluster only the leader deletes (decision 036); a process that becomes the leader runs a pass at once.
  const scheduled = () => {
    if (app.cluster.isLeader()) void runNow();
  };
  const timer = setInterval(scheduled, intervalMs);
  timer.unref();
  app.cluster.onBecomeLeader(scheduled);
  scheduled();
  return {
    runNow,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
