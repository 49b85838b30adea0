// Writing the alerts of staff in danger that people raise and answer (decision 100): a duress alarm stored with the
// account that pressed it and the staff member it is about, a second press repeating it, its stand-down by that account
// with a note, and "Responding" by anyone else, kept with who and when.
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AlertRecord, AlertResponder, NearbyStaffEntry } from '@prison/shared';
import type { Db, DbOrTx } from '../../db/client';
import { alerts } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { nobodyOrInCaseload, type Caseload } from '../../lib/caseload';
import { conflict, notFound } from '../../lib/http-errors';
import type { StoredAlert } from '../../tracking/ports';
import { findAlertRecord } from './alert-records';
import { insertAlerts } from './alert-store';

export interface DuressDraft {
  details: string;
  at: Date;
  /** The officer's tracker (the live map marks him), null when his account names none. */
  deviceId: string | null;
  /** The nearest other staff at the alarm; null when his position is not known. */
  nearbyStaff: NearbyStaffEntry[] | null;
  raisedBy: number;
  staffId: number | null;
}

export type RaisedDuress = { created: true; alert: StoredAlert; record: AlertRecord } | { created: false; record: AlertRecord };

/** Serialises one account's presses, so two taps at once store one alarm. Arbitrary, fixed: this feature's lock class. */
const DURESS_LOCK_CLASS = 100_100;

/** The account's open (not resolved) duress alarm, if any (the open-duress index). */
async function openDuressId(db: DbOrTx, adminId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: alerts.id })
    .from(alerts)
    .where(and(eq(alerts.raisedBy, adminId), eq(alerts.kind, 'duress'), ne(alerts.status, 'Resolved')))
    .orderBy(sql`${alerts.id} desc`)
    .limit(1);
  return row?.id ?? null;
}

export async function findOpenDuress(db: DbOrTx, adminId: number): Promise<AlertRecord | null> {
  const id = await openDuressId(db, adminId);
  return id === null ? null : findAlertRecord(db, id);
}

/**
 * Raises the account's duress alarm, Critical; while one is open a press repeats it (its count and time, as a tracker's
 * repeated SOS does) and raises nothing new. `beforeStore` runs only for a new alarm (the per-account limit).
 */
export async function raiseDuress(db: Db, draft: DuressDraft, who: AuditActor, beforeStore?: () => void): Promise<RaisedDuress> {
  return db.transaction(async (tx): Promise<RaisedDuress> => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DURESS_LOCK_CLASS}, ${draft.raisedBy})`);
    const open = await openDuressId(tx, draft.raisedBy);
    if (open !== null) {
      await tx
        .update(alerts)
        .set({ repeatCount: sql`${alerts.repeatCount} + 1`, lastRepeatAt: draft.at })
        .where(eq(alerts.id, open));
      return { created: false, record: await findAlertRecord(tx, open) };
    }
    beforeStore?.();
    const [alert] = await insertAlerts(tx, [
      { alertType: 'Critical', kind: 'duress', details: draft.details, at: draft.at, deviceId: draft.deviceId, prisonerId: null, nearbyStaff: draft.nearbyStaff },
    ]);
    await tx.update(alerts).set({ raisedBy: draft.raisedBy, staffId: draft.staffId }).where(eq(alerts.id, alert!.id));
    const record = await findAlertRecord(tx, alert!.id);
    await recordAudit(tx, who, { action: 'duress', entity: 'alert', entityId: alert!.id, after: record });
    return { created: true, alert: alert!, record };
  });
}

/**
 * The account stands its own open duress down with a note: acknowledged (if nobody had) and resolved at once, as only
 * the person in danger can say he is safe. Nothing open: 404.
 */
export async function standDownDuress(db: Db, adminId: number, note: string, who: AuditActor): Promise<AlertRecord> {
  return db.transaction(async (tx) => {
    const id = await openDuressId(tx, adminId);
    if (id === null) throw notFound('You have no open duress alarm to stand down');
    const [row] = await tx.select().from(alerts).where(eq(alerts.id, id)).for('update');
    const now = new Date();
    const text = `Stood down: ${note}`;
    await tx
      .update(alerts)
      .set({
        status: 'Resolved',
        note: row!.note ? `${row!.note}\n${text}` : text,
        acknowledgedBy: row!.acknowledgedBy ?? adminId,
        acknowledgedAt: row!.acknowledgedAt ?? now,
        resolvedBy: adminId,
        resolvedAt: now,
      })
      .where(eq(alerts.id, id));
    await recordAudit(tx, who, {
      action: 'stand-down',
      entity: 'alert',
      entityId: id,
      before: { status: row!.status, note: row!.note, alert_type: row!.alertType, details: row!.details },
      after: { status: 'Resolved', note: text, alert_type: row!.alertType, details: row!.details },
    });
    return findAlertRecord(tx, id);
  });
}

/**
 * "Responding": the account is on its way. Kept once per account with when it first pressed, in order; a resolved
 * alert needs nobody (409), and the person who raised a duress is the one in danger (409). An alert of a prisoner
 * outside the caseload is as unknown (404).
 */
export async function respondToAlert(
  db: Db,
  id: number,
  responder: { adminId: number; name: string },
  caseload: Caseload,
  who: AuditActor,
): Promise<{ record: AlertRecord; added: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: alerts.status, raisedBy: alerts.raisedBy, responding: alerts.responding })
      .from(alerts)
      .where(and(eq(alerts.id, id), nobodyOrInCaseload(alerts.prisonerId, caseload)))
      .for('update');
    if (!row) throw notFound(`Alert ${id} not found`);
    if (row.status === 'Resolved') throw conflict(`Alert ${id} is resolved: nobody needs to respond`);
    if (row.raisedBy === responder.adminId) throw conflict('You raised this alarm: stand it down when you are safe');
    const list = row.responding ?? [];
    if (list.some((entry) => entry.admin_id === responder.adminId)) return { record: await findAlertRecord(tx, id), added: false };
    const entry: AlertResponder = { admin_id: responder.adminId, name: responder.name, at: new Date().toISOString() };
    await tx.update(alerts).set({ responding: [...list, entry] }).where(eq(alerts.id, id));
    await recordAudit(tx, who, { action: 'respond', entity: 'alert', entityId: id, after: { responding: entry } });
    return { record: await findAlertRecord(tx, id), added: true };
  });
}
