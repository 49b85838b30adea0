// The alert workflow: New -> Acknowledged -> Resolved, with who, when and an optional note (issue 5).
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { ALERT_TYPES, type AlertDailyCount, type AlertRecord, type AlertWorkflowAction } from '@prison/shared';
import type { Db, DbOrTx } from '../../db/client';
import { alerts } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { conflict, notFound } from '../../lib/http-errors';
import { findAlertRecord } from './alert-service';

const RANK = { New: 0, Acknowledged: 1, Resolved: 2 } as const;
const TARGET = { acknowledge: 'Acknowledged', resolve: 'Resolved' } as const;

/** A note adds to what earlier steps wrote, so nothing said about an alert is lost. */
const joinNotes = (before: string | null, note: string | undefined) =>
  note ? (before ? `${before}\n${note}` : note) : before;

interface Step {
  action: AlertWorkflowAction;
  note?: string;
  adminId: number;
}

/** Moves locked alerts forward; returns the ids that moved. Alerts already at or past the target are left alone. */
async function applyStep(
  tx: DbOrTx,
  ids: number[],
  step: Step,
  who: AuditActor,
): Promise<{ updated: number[]; skipped: number[] }> {
  const rows = await tx.select().from(alerts).where(inArray(alerts.id, ids)).orderBy(alerts.id).for('update');
  const missing = ids.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length)
    throw notFound(missing.length === 1 ? `Alert ${missing[0]} not found` : `Alerts not found: ${missing.join(', ')}`);
  const target = TARGET[step.action];
  const now = new Date();
  const updated: number[] = [];
  const skipped: number[] = [];
  for (const row of rows) {
    if (RANK[row.status as keyof typeof RANK] >= RANK[target]) {
      skipped.push(row.id);
      continue;
    }
    const before = { status: row.status, note: row.note };
    const set: Partial<typeof alerts.$inferInsert> = { status: target, note: joinNotes(row.note, step.note) };
    // Resolving a New alert also acknowledges it: the operator has seen it.
    if (!row.acknowledgedAt) Object.assign(set, { acknowledgedBy: step.adminId, acknowledgedAt: now });
    if (target === 'Resolved') Object.assign(set, { resolvedBy: step.adminId, resolvedAt: now });
    await tx.update(alerts).set(set).where(eq(alerts.id, row.id));
    await recordAudit(tx, who, {
      action: step.action,
      entity: 'alert',
      entityId: row.id,
      before,
      after: { status: target, note: set.note ?? null },
    });
    updated.push(row.id);
  }
  return { updated, skipped };
}

/** One alert, one step: 409 when it is already there. */
export async function stepAlert(db: Db, id: number, step: Step, who: AuditActor): Promise<AlertRecord> {
  return db.transaction(async (tx) => {
    const { skipped } = await applyStep(tx, [id], step, who);
    if (skipped.length) {
      const [row] = await tx.select({ status: alerts.status }).from(alerts).where(eq(alerts.id, id));
      throw conflict(`Alert ${id} is already ${row!.status.toLowerCase()}`);
    }
    return findAlertRecord(tx, id);
  });
}

/** Many alerts, one step, all or nothing: an unknown id changes nothing (404). */
export async function stepAlerts(db: Db, ids: number[], step: Step, who: AuditActor) {
  const unique = [...new Set(ids)];
  return db.transaction((tx) => applyStep(tx, unique, step, who));
}

/** Alerts per UTC day and type over the last `days` days (today included), zero days included. */
export async function dailyAlertCounts(db: DbOrTx, days: number, now = new Date()): Promise<AlertDailyCount[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (days - 1) * 86_400_000);
  const rows = await db
    .select({
      day: sql<string>`to_char(${alerts.timestamp} at time zone 'UTC', 'YYYY-MM-DD')`,
      type: alerts.alertType,
      n: sql<number>`count(*)::int`,
    })
    .from(alerts)
    .where(and(gte(alerts.timestamp, first)))
    .groupBy(sql`1`, alerts.alertType);
  const byDay = new Map<string, AlertDailyCount>();
  for (let i = 0; i < days; i++) {
    const date = new Date(first.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    byDay.set(date, { date, Informational: 0, Warning: 0, Critical: 0 });
  }
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (entry && (ALERT_TYPES as readonly string[]).includes(row.type))
      entry[row.type as keyof Omit<AlertDailyCount, 'date'>] += Number(row.n);
  }
  return [...byDay.values()];
}
