// Retention of closed alerts (ALERT_RETENTION_DAYS; unset keeps every alert, decision 061) and of the audit trail
// (AUDIT_RETENTION_DAYS, a year by default, decision 104). Batched like the fixes' retention, and each pass that
// deletes anything is audited as retention.delete (written after the deletion, so it is never deleted by it).
import type { DbOrTx } from '../db/client';
import type { AlertStore } from './ports';
import { recordAudit, SYSTEM_ACTOR } from '../lib/audit';
import { trimAuditChain } from '../lib/audit-chain';

const DEFAULT_BATCH_SIZE = 10_000;

interface RetentionOptions {
  batchSize?: number;
  now?: Date;
}

const cutoffOf = (days: number, now: Date) => new Date(now.getTime() - days * 86_400_000).toISOString();

/** Runs `deleteBatch` (which deletes at most `batchSize` rows and answers how many) until a batch is short; returns the total. */
async function deleteInBatches(deleteBatch: () => Promise<number>, batchSize: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await deleteBatch();
    deleted += count;
    if (count < batchSize) return deleted;
  }
}

/**
 * Deletes resolved alerts raised and resolved before now minus `retentionDays` (their deliveries go with them). An
 * alert that is not resolved, or a geofence violation still running, is never deleted, however old.
 */
export async function deleteExpiredAlerts(
  db: DbOrTx,
  store: Pick<AlertStore, 'deleteResolvedAlerts'>,
  retentionDays: number,
  { batchSize = DEFAULT_BATCH_SIZE, now = new Date() }: RetentionOptions = {},
): Promise<number> {
  const cutoff = cutoffOf(retentionDays, now);
  const deleted = await deleteInBatches(() => store.deleteResolvedAlerts(db, cutoff, batchSize), batchSize);
  if (deleted > 0) {
    await recordAudit(db, SYSTEM_ACTOR, {
      action: 'retention.delete',
      entity: 'alerts',
      after: { deleted, resolved_before: cutoff, retention_days: retentionDays },
    });
  }
  return deleted;
}

/**
 * Deletes audit entries written before now minus `retentionDays`, oldest first in the chain's order, leaving a signed
 * anchor at the last one deleted so the rest still verifies (lib/audit-chain.ts).
 */
export async function deleteExpiredAudit(
  db: DbOrTx,
  retentionDays: number,
  { batchSize = DEFAULT_BATCH_SIZE, now = new Date() }: RetentionOptions = {},
): Promise<number> {
  const cutoff = cutoffOf(retentionDays, now);
  const deleted = await trimAuditChain(db, new Date(cutoff), batchSize);
  if (deleted > 0) {
    await recordAudit(db, SYSTEM_ACTOR, {
      action: 'retention.delete',
      entity: 'audit_log',
      after: { deleted, written_before: cutoff, retention_days: retentionDays },
    });
  }
  return deleted;
}
