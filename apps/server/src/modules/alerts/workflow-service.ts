// The alert workflow: New -> Acknowledged -> Resolved, with who, when and a note. Closing a Critical or
// Warning alert is deliberate (decision 040): acknowledged first, resolved with a note that says something,
// and a bulk step takes a Critical only when it was chosen one by one. A Critical is acknowledged with a note too
// (decision 095).
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import {
  acknowledgeNeedsNote,
  ALERT_TYPES,
  noteHasWords,
  resolveIsDeliberate,
  type AlertDailyCount,
  type AlertRecord,
  type AlertWorkflowAction,
} from '@prison/shared';
import type { Db, DbOrTx } from '../../db/client';
import { alerts } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { nobodyOrInCaseload, type Caseload } from '../../lib/caseload';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { findAlertRecord } from './alert-records';

const RANK = { New: 0, Acknowledged: 1, Resolved: 2 } as const;
const TARGET = { acknowledge: 'Acknowledged', resolve: 'Resolved' } as const;

/** A note adds to what earlier steps wrote, so nothing said about an alert is lost. */
const joinNotes = (before: string | null, note: string | undefined) =>
  note ? (before ? `${before}\n${note}` : note) : before;

interface Step {
  action: AlertWorkflowAction;
  note?: string;
  adminId: number;
  /** A bulk step: the Critical alerts the operator chose one by one (any other Critical refuses the step). */
  bulk?: { confirmedCriticals: readonly number[] };
  /** The account's caseload: an alert of a prisoner outside it is as unknown (decision 051). */
  caseload?: Caseload;
}

type AlertRow = typeof alerts.$inferSelect;

const idList = (rows: AlertRow[]) => rows.map((row) => row.id).join(', ');

/** Refuses a step that would close an alarm by accident; throws before anything is written. */
function checkDeliberate(rows: AlertRow[], moving: AlertRow[], step: Step) {
  if (step.bulk) {
    const unchosen = rows.filter((row) => row.alertType === 'Critical' && !step.bulk!.confirmedCriticals.includes(row.id));
    if (unchosen.length)
      throw conflict(
        `${unchosen.length === 1 ? `Alert ${unchosen[0]!.id} is` : `Alerts ${idList(unchosen)} are`} Critical: a bulk ` +
          'action takes a Critical alert only when it is chosen one by one (list it in confirm_critical_ids)',
      );
  }
  if (step.action === 'acknowledge') {
    // Someone taking a Critical says what is being done about it; the note is optional for the other levels.
    if (moving.some((row) => acknowledgeNeedsNote(row.alertType)) && !noteHasWords(step.note))
      throw badRequest('note is required to acknowledge a Critical alert: say in words what is being done');
    return;
  }
  const deliberate = moving.filter((row) => resolveIsDeliberate(row.alertType));
  const unacknowledged = deliberate.filter((row) => row.status === 'New');
  if (unacknowledged.length === 1) {
    const [row] = unacknowledged;
    throw conflict(`Alert ${row!.id} is ${row!.alertType}: acknowledge it before resolving it`);
  }
  if (unacknowledged.length)
    throw conflict(`Alerts ${idList(unacknowledged)} are Critical or Warning: acknowledge them before resolving them`);
  if (deliberate.length && !noteHasWords(step.note)) {
    const levels = [...new Set(deliberate.map((row) => row.alertType))].join(' or ');
    throw badRequest(`note is required to resolve a ${levels} alert: say in words what was done`);
  }
}

/** Moves locked alerts forward; returns the ids that moved. Alerts already at or past the target are left alone. */
async function applyStep(
  tx: DbOrTx,
  ids: number[],
  step: Step,
  who: AuditActor,
): Promise<{ updated: number[]; skipped: number[] }> {
  const rows = await tx
    .select()
    .from(alerts)
    .where(and(inArray(alerts.id, ids), nobodyOrInCaseload(alerts.prisonerId, step.caseload ?? [])))
    .orderBy(alerts.id)
    .for('update');
  const missing = ids.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length)
    throw notFound(missing.length === 1 ? `Alert ${missing[0]} not found` : `Alerts not found: ${missing.join(', ')}`);
  const target = TARGET[step.action];
  const moving = rows.filter((row) => RANK[row.status as keyof typeof RANK] < RANK[target]);
  checkDeliberate(rows, moving, step);
  const now = new Date();
  for (const row of moving) {
    const set: Partial<typeof alerts.$inferInsert> = { status: target, note: joinNotes(row.note, step.note) };
    // Resolving a New (Informational) alert also acknowledges it: the operator has seen it.
    if (!row.acknowledgedAt) Object.assign(set, { acknowledgedBy: step.adminId, acknowledgedAt: now });
    if (target === 'Resolved') Object.assign(set, { resolvedBy: step.adminId, resolvedAt: now });
    await tx.update(alerts).set(set).where(eq(alerts.id, row.id));
    // The level and text travel with every step, so the trail reads on its own ("resolved a Critical: SOS ...").
    const alert = { alert_type: row.alertType, details: row.details };
    await recordAudit(tx, who, {
      action: step.action,
      entity: 'alert',
      entityId: row.id,
      before: { status: row.status, note: row.note, ...alert },
      after: { status: target, note: set.note ?? null, ...alert, ...(step.bulk && { bulk: true }) },
    });
  }
  const updated = moving.map((row) => row.id);
  return { updated, skipped: rows.filter((row) => !updated.includes(row.id)).map((row) => row.id) };
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

/**
 * Opening an incident from a Critical alert acknowledges it, in the incident's transaction, with the incident as its
 * note (decision 105): the operator has taken it in hand. Only open (New) Criticals move; answers their ids.
 */
export async function acknowledgeCriticalsForIncident(
  tx: DbOrTx,
  alertIds: readonly number[],
  incidentId: number,
  step: { adminId: number; caseload?: Caseload },
  who: AuditActor,
): Promise<number[]> {
  if (alertIds.length === 0) return [];
  const open = await tx
    .select({ id: alerts.id })
    .from(alerts)
    .where(and(inArray(alerts.id, [...alertIds]), eq(alerts.alertType, 'Critical'), eq(alerts.status, 'New')));
  if (open.length === 0) return [];
  const note = `Incident #${incidentId} opened`;
  const { updated } = await applyStep(tx, open.map((row) => row.id), { action: 'acknowledge', note, ...step }, who);
  return updated;
}

/** Many alerts, one step, all or nothing: an unknown id or an alert the step may not close changes nothing. */
export async function stepAlerts(
  db: Db,
  ids: number[],
  step: Omit<Step, 'bulk'> & { confirmedCriticals?: readonly number[] },
  who: AuditActor,
) {
  const unique = [...new Set(ids)];
  const { confirmedCriticals = [], ...rest } = step;
  return db.transaction((tx) => applyStep(tx, unique, { ...rest, bulk: { confirmedCriticals } }, who));
}

/** Alerts per UTC day and type over the last `days` days (today included), zero days included. */
export async function dailyAlertCounts(db: DbOrTx, days: number, now = new Date(), caseload: Caseload = []): Promise<AlertDailyCount[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (days - 1) * 86_400_000);
  const rows = await db
    .select({
      day: sql<string>`to_char(${alerts.timestamp} at time zone 'UTC', 'YYYY-MM-DD')`,
      type: alerts.alertType,
      n: sql<number>`count(*)::int`,
    })
    .from(alerts)
    .where(and(gte(alerts.timestamp, first), nobodyOrInCaseload(alerts.prisonerId, caseload)))
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
