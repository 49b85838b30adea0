// Retention of alerts and of the audit trail (decisions 061 and 104), on real rows: resolved alerts older than
// ALERT_RETENTION_DAYS go with their deliveries, open ones never do; audit entries older than AUDIT_RETENTION_DAYS (a
// year by default) go, oldest first, and the chain still verifies; each deletion is audited as retention.delete.
import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alertDeliveries, alerts, auditLog } from '../src/db/schema';
import type { DbOrTx } from '../src/db/client';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../src/config';
import { appendChained, drizzleRunner, verifyAuditChain } from '../src/lib/audit-chain';
import { startRetentionJob } from '../src/tracking/retention-job';
import { deleteExpiredAlerts, deleteExpiredAudit } from '../src/tracking/retention-records';
import { trackingPorts } from '../src/composition';
import { useTestApp } from './test-app';

const alertStore = trackingPorts.alerts;

const DAY = 86_400_000;

type AlertRow = typeof alerts.$inferInsert;

async function insertAlert(db: DbOrTx, daysAgo: number, now: number, fields: Partial<AlertRow> = {}): Promise<number> {
  const at = new Date(now - daysAgo * DAY);
  const [row] = await db
    .insert(alerts)
    .values({
      alertType: 'Warning',
      details: `alert ${daysAgo} days old`,
      date: at.toISOString().slice(0, 10),
      timestamp: at,
      deviceId: 'retention-device',
      ...fields,
    })
    .returning({ id: alerts.id });
  return row!.id;
}

const resolvedDaysAgo = (daysAgo: number, now: number): Partial<AlertRow> => ({
  status: 'Resolved',
  resolvedAt: new Date(now - daysAgo * DAY),
});

/** Appends an entry written `daysAgo` days before `now` to the chain, as the server would have then. */
async function insertAudit(db: DbOrTx, daysAgo: number, now: number, entityId: string): Promise<void> {
  const row = { adminId: null, actor: 'retention-test', ip: null, action: 'update', entity: 'prisoner', entityId, before: null, after: null };
  await db.transaction((tx) => appendChained(drizzleRunner(tx), row, new Date(now - daysAgo * DAY)));
}

/**
 * Starts the app's trail anew, so the entries a test writes, oldest first, are the whole chain: retention deletes
 * from the oldest end up to the first entry that is not old enough, and the app's own login entries are of now.
 */
async function newTrail(db: DbOrTx): Promise<void> {
  await db.execute(sql`delete from audit_log`);
  await db.execute(sql`delete from audit_chain`);
}

const chainIntact = async (db: DbOrTx) => (await verifyAuditChain(drizzleRunner(db))).intact;

const existingIds = async (db: DbOrTx, ids: number[]) =>
  (await db.select({ id: alerts.id }).from(alerts).where(inArray(alerts.id, ids)))
    .map((r) => r.id)
    .sort((a, b) => a - b);

const retentionEntries = (db: DbOrTx, entity: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'retention.delete'), eq(auditLog.entity, entity))).orderBy(auditLog.id);

// One app with the default settings (both unset) for the deletions themselves and the job that keeps everything;
// its tests run in order and each counts only its own rows. A second app has both settings.
describe('with the default settings', () => {
  const ctx = useTestApp('pglite');

  it('deletes resolved alerts older than the limit with their deliveries; keeps open, running and recent ones', async () => {
    const db = ctx().database.db;
    const now = Date.parse('2027-06-01T00:00:00Z');
    const oldResolved = [];
    for (let i = 0; i < 4; i++) oldResolved.push(await insertAlert(db, 400 + i, now, resolvedDaysAgo(399, now)));
    const endedViolation = await insertAlert(db, 500, now, {
      kind: 'geofence',
      endedAt: new Date(now - 499 * DAY),
      ...resolvedDaysAgo(498, now),
    });
    // A zone entry is an event, never worked to resolved: it goes once it has ended, like a resolved alert.
    const endedEvent = await insertAlert(db, 450, now, { alertType: 'Informational', kind: 'geofence', needsAction: false, endedAt: new Date(now - 449 * DAY) });
    const kept = [
      await insertAlert(db, 400, now), // New
      await insertAlert(db, 400, now, { status: 'Acknowledged', acknowledgedAt: new Date(now - 399 * DAY) }),
      await insertAlert(db, 400, now, { alertType: 'Critical', kind: 'sos' }), // an old alarm nobody handled
      await insertAlert(db, 400, now, { kind: 'geofence', ...resolvedDaysAgo(399, now) }), // violation still running
      await insertAlert(db, 400, now, resolvedDaysAgo(10, now)), // resolved only lately
      await insertAlert(db, 10, now, resolvedDaysAgo(9, now)), // recent
      await insertAlert(db, 400, now, { alertType: 'Informational', kind: 'geofence', needsAction: false }), // still in the zone
    ];
    await db.insert(alertDeliveries).values([
      { alertId: oldResolved[0]!, channel: 'email', status: 'sent' },
      { alertId: kept[2]!, channel: 'email', status: 'failed' },
    ]);

    const deleted = await deleteExpiredAlerts(db, alertStore, 365, { batchSize: 2, now: new Date(now) });

    expect(deleted).toBe(6);
    expect(await existingIds(db, [...oldResolved, endedViolation, endedEvent])).toEqual([]);
    expect(await existingIds(db, kept)).toEqual([...kept].sort((a, b) => a - b));
    const deliveries = await db.select({ alertId: alertDeliveries.alertId }).from(alertDeliveries);
    expect(deliveries.map((d) => d.alertId)).toEqual([kept[2]]);
    const [entry] = await retentionEntries(db, 'alerts');
    expect(entry).toMatchObject({ actor: 'system', after: { deleted: 6, retention_days: 365 } });

    // A second pass finds nothing and writes no audit entry.
    expect(await deleteExpiredAlerts(db, alertStore, 365, { now: new Date(now) })).toBe(0);
    expect(await retentionEntries(db, 'alerts')).toHaveLength(1);
  });

  it('deletes audit entries older than the limit, keeps newer ones, and audits the deletion', async () => {
    const db = ctx().database.db;
    const now = Date.now();
    await newTrail(db);
    for (let i = 0; i < 5; i++) await insertAudit(db, 804 - i, now, `old-${i}`);
    await insertAudit(db, 700, now, 'newer');
    await insertAudit(db, 1, now, 'recent');

    const deleted = await deleteExpiredAudit(db, 730, { batchSize: 2, now: new Date(now) });

    expect(deleted).toBeGreaterThanOrEqual(5);
    const left = await db
      .select({ entityId: auditLog.entityId })
      .from(auditLog)
      .where(eq(auditLog.actor, 'retention-test')).orderBy(auditLog.id);
    expect(left.map((r) => r.entityId).sort()).toEqual(['newer', 'recent']);
    const [entry] = await retentionEntries(db, 'audit_log');
    expect(entry).toMatchObject({ actor: 'system', after: { deleted, retention_days: 730 } });
    expect(await chainIntact(db)).toBe(true);
  });

  it('the daily job with ALERT_RETENTION_DAYS unset keeps every alert, and the audit trail a year by default', async () => {
    const { app, database } = ctx();
    expect(DEFAULT_AUDIT_RETENTION_DAYS).toBeGreaterThanOrEqual(365);
    expect(app.config.AUDIT_RETENTION_DAYS).toBe(DEFAULT_AUDIT_RETENTION_DAYS);
    const now = Date.now();
    const alert = await insertAlert(database.db, 20_000, now, resolvedDaysAgo(19_999, now));
    await newTrail(database.db);
    await insertAudit(database.db, 20_000, now, 'ancient');
    await insertAudit(database.db, DEFAULT_AUDIT_RETENTION_DAYS + 1, now, 'over-a-year');
    await insertAudit(database.db, DEFAULT_AUDIT_RETENTION_DAYS - 1, now, 'under-a-year');
    const job = startRetentionJob(app, 3_600_000);
    try {
      await job.runNow();
    } finally {
      await job.stop();
    }
    expect(await existingIds(database.db, [alert])).toEqual([alert]);
    const audit = await database.db.select({ entityId: auditLog.entityId }).from(auditLog).where(eq(auditLog.actor, 'retention-test')).orderBy(auditLog.id);
    expect(audit.map((r) => r.entityId)).toEqual(['under-a-year']);
    expect(await chainIntact(database.db)).toBe(true);
  });
});

describe('the daily job with both set', () => {
  const ctx = useTestApp('pglite', { ALERT_RETENTION_DAYS: 30, AUDIT_RETENTION_DAYS: 90 });

  it('deletes what is older than each limit, and keeps the open alert', async () => {
    const { app, database } = ctx();
    const now = Date.now();
    const closed = await insertAlert(database.db, 60, now, resolvedDaysAgo(59, now));
    const open = await insertAlert(database.db, 60, now);
    await newTrail(database.db);
    await insertAudit(database.db, 100, now, 'past-limit');
    await insertAudit(database.db, 60, now, 'within-limit');
    const job = startRetentionJob(app, 3_600_000);
    try {
      await job.runNow();
    } finally {
      await job.stop();
    }
    expect(await existingIds(database.db, [closed, open])).toEqual([open]);
    const ids = await database.db
      .select({ entityId: auditLog.entityId })
      .from(auditLog)
      .where(sql`${auditLog.entityId} in ('past-limit', 'within-limit')`).orderBy(auditLog.id);
    expect(ids.map((r) => r.entityId)).toEqual(['within-limit']);
    expect(await retentionEntries(database.db, 'alerts')).toHaveLength(1);
    expect(await retentionEntries(database.db, 'audit_log')).toHaveLength(1);
  });
});
