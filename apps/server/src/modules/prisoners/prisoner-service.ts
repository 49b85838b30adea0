// Prisoner records: create, update (full or one field), archive (the spec's Delete) and restore, and moves between cells.
// Any write that gives a prisoner a place in a cell reserves it inside the same transaction (docs/CLIENT-CONTRACT.md) and is
// checked against the cell rules there (decision 031: sex, status, keep-apart; any but capacity may be overridden).
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { PendingChange, Prisoner, PrisonerCreateInput, PrisonerHoldings, PrisonerInput, PrisonerListQuery } from '@prison/shared';
import { custodyArchiveRefusal, isOccupyingStatus, todayUtc, totalPages } from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { alerts, escorts, geofenceStates, keepApartPairs, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Caseload } from '../../lib/caseload';
import { HttpError, badRequest, conflict, notFound, ruleConflict } from '../../lib/http-errors';
import { auditOverride, checkPlacement } from '../cells/cell-rules';
import { keepLiftedViolationsOpen, moveAlarms } from '../cells/move-alarms';
import { requestChange } from '../pending-changes/pending-change-service';
import { endEscort } from '../escorts/escort-service';
import { findPrisoner, listPrisonersJson, prisonersChanged } from './prisoner-repository';
import { assignPrisonNumber, checkPrisonNumberFree, isPrisonNumberClash, prisonNumberTaken } from './prison-number';

export const PRISONER_DELETED_MESSAGE = 'Prisoner deleted successfully.';

export async function getPrisoner(db: DbOrTx, prisonerId: number): Promise<Prisoner> {
  const found = await findPrisoner(db, prisonerId);
  if (!found) throw notFound(`Prisoner ${prisonerId} not found`);
  return found;
}

/**
 * One page of the list as the JSON text the route sends: `{ prisoners, currentPage, totalPages, totalPrisoners }`,
 * the prisoners' JSON written by PostgreSQL (decision 049); a caseload's prisoners only (decision 051).
 */
export async function listPrisonerPageJson(db: DbOrTx, query: PrisonerListQuery, caseload: Caseload = []): Promise<string> {
  const { prisonersJson, total } = await listPrisonersJson(db, query, caseload);
  return `{"prisoners":${prisonersJson},"currentPage":${query.page},"totalPages":${totalPages(total, query.limit)},"totalPrisoners":${total}}`;
}

/** The API's field names mapped to the table's columns; absent fields stay absent (partial update). */
function toColumns(input: PrisonerInput) {
  const columns: Partial<typeof prisoners.$inferInsert> = {};
  if (input.prison_number !== undefined) columns.prisonNumber = input.prison_number;
  if (input.first_name !== undefined) columns.firstName = input.first_name;
  if (input.last_name !== undefined) columns.lastName = input.last_name;
  if (input.date_of_birth !== undefined) columns.dateOfBirth = input.date_of_birth;
  if (input.gender !== undefined) columns.gender = input.gender;
  if (input.national_id !== undefined) columns.nationalId = input.national_id;
  if (input.entry_date !== undefined) columns.entryDate = input.entry_date;
  if (input.release_date !== undefined) columns.releaseDate = input.release_date;
  if (input.status !== undefined) columns.status = input.status;
  if (input.cell_id !== undefined) columns.cellId = input.cell_id || null;
  if (input.behavior_record !== undefined) columns.behaviorRecord = input.behavior_record || null;
  if (input.medical_history !== undefined) columns.medicalHistory = input.medical_history || null;
  return columns;
}

type PrisonerState = Pick<
  typeof prisoners.$inferSelect,
  'firstName' | 'lastName' | 'gender' | 'dateOfBirth' | 'entryDate' | 'releaseDate' | 'status' | 'cellId'
>;

/** Rules across fields, checked on the record as it will be after the write. */
function checkDates(state: PrisonerState) {
  // The route schema checks a date of birth that is sent; this also covers the seed and other callers of the service.
  if (state.dateOfBirth && state.dateOfBirth >= todayUtc()) throw badRequest('date_of_birth: must be in the past');
  if (state.dateOfBirth && state.entryDate && state.entryDate < state.dateOfBirth) {
    throw badRequest('entry_date: must not be before date_of_birth');
  }
  if (state.entryDate && state.releaseDate && state.releaseDate < state.entryDate) {
    throw badRequest('release_date: must not be before entry_date');
  }
}

/**
 * Runs a prisoner write in a transaction, then drops the cached list totals (also when the write failed midway). Two
 * writes giving one prison number at the same moment: the unique index refuses the second, answered as the check would.
 */
async function inPrisonerWrite<T>(db: DbOrTx, write: (tx: Tx) => Promise<T>, prisonNumber?: string): Promise<T> {
  try {
    return await db.transaction(write);
  } catch (error) {
    if (prisonNumber && isPrisonNumberClash(error)) throw prisonNumberTaken(prisonNumber);
    throw error;
  } finally {
    prisonersChanged();
  }
}

export async function createPrisoner(db: DbOrTx, who: AuditActor, input: PrisonerCreateInput): Promise<Prisoner> {
  return inPrisonerWrite(db, async (tx) => {
    const columns = toColumns(input);
    const state: PrisonerState = {
      firstName: columns.firstName ?? '',
      lastName: columns.lastName ?? '',
      gender: columns.gender ?? null,
      dateOfBirth: columns.dateOfBirth ?? null,
      entryDate: columns.entryDate ?? null,
      releaseDate: columns.releaseDate ?? null,
      status: columns.status ?? null,
      cellId: columns.cellId ?? null,
    };
    checkDates(state);
    const overridden = await checkPlacement(tx, null, null, state, input.override_reason);
    if (columns.prisonNumber) await checkPrisonNumberFree(tx, columns.prisonNumber, null);
    else columns.prisonNumber = await assignPrisonNumber(tx);
    const [row] = await tx.insert(prisoners).values(columns).returning({ id: prisoners.prisonerId });
    const created = (await findPrisoner(tx, row!.id))!;
    await recordAudit(tx, who, { action: 'create', entity: 'prisoner', entityId: created.prisoner_id, after: created });
    await auditOverride(tx, who, created.prisoner_id, state.cellId, overridden, input.override_reason);
    return created;
  }, input.prison_number);
}

/** A prisoner write either took effect, or moves him out of an alarm and waits for a second person (decision 091). */
export type PrisonerWrite = { prisoner: Prisoner; pending: PendingChange | null };

const MOVE_NEEDS_REASON = 'reason: this move lifts an alarm and needs a reason for the second person who approves it';

/**
 * Updates a prisoner. A cell change that lifts an alarm (move-alarms.ts) is stored as pending with its reason, the
 * whole update with it, and nothing changes; `approved` applies it (the approver's decision).
 */
export async function updatePrisoner(
  db: DbOrTx,
  who: AuditActor,
  prisonerId: number,
  { reason, ...input }: PrisonerInput,
  auditAction = 'update',
  { approved = false }: { approved?: boolean } = {},
): Promise<PrisonerWrite> {
  const columns = toColumns(input);
  if (Object.keys(columns).length === 0) throw badRequest('body: no field to update');
  return inPrisonerWrite(db, async (tx) => {
    // Locked so two edits of one prisoner cannot both pass the checks on a stale record.
    const [current] = await tx.select().from(prisoners).where(eq(prisoners.prisonerId, prisonerId)).for('update');
    if (!current) throw notFound(`Prisoner ${prisonerId} not found`);
    if (current.archivedAt) throw archivedConflict(prisonerId);
    const before = (await findPrisoner(tx, prisonerId))!;
    const next = { ...current, ...columns };
    checkDates(next);
    if (columns.prisonNumber) await checkPrisonNumberFree(tx, columns.prisonNumber, prisonerId);
    const overridden = await checkPlacement(tx, prisonerId, current, next, input.override_reason);
    const alarms = await moveAlarms(tx, prisonerId, current.cellId, next.cellId);
    if (alarms.changes.length > 0 && !approved) {
      if (!reason) throw badRequest(MOVE_NEEDS_REASON);
      const pending = await requestChange(tx, who, {
        targetType: 'prisoner',
        targetId: String(prisonerId),
        targetName: `${current.firstName} ${current.lastName} (${current.prisonNumber})`,
        kind: 'move',
        payload: { input, auditAction },
        changes: alarms.changes,
        reason,
      });
      return { prisoner: before, pending };
    }
    await keepLiftedViolationsOpen(tx, current.trackingDeviceId, alarms.lifted);
    await tx
      .update(prisoners)
      .set({ ...columns, updatedAt: new Date() })
      .where(eq(prisoners.prisonerId, prisonerId));
    const after = (await findPrisoner(tx, prisonerId))!;
    await recordAudit(tx, who, { action: auditAction, entity: 'prisoner', entityId: prisonerId, before, after });
    await auditOverride(tx, who, prisonerId, next.cellId, overridden, input.override_reason);
    return { prisoner: after, pending: null };
  }, input.prison_number);
}

/** Applies an approved move (the update as asked), as the approver; the cell rules are checked again now. */
export async function applyPrisonerMove(tx: DbOrTx, who: AuditActor, prisonerId: number, payload: unknown): Promise<Prisoner> {
  const { input, auditAction } = payload as { input: PrisonerInput; auditAction: string };
  return (await updatePrisoner(tx, who, prisonerId, input, auditAction, { approved: true })).prisoner;
}

/** Moves (or first assigns) a prisoner into a cell, with the same locked capacity check as any other write. */
export async function assignPrisonerToCell(
  db: DbOrTx,
  who: AuditActor,
  prisonerId: number,
  cellId: string,
  overrideReason?: string | null,
  reason?: string,
): Promise<PrisonerWrite> {
  return updatePrisoner(db, who, prisonerId, { cell_id: cellId, override_reason: overrideReason, reason }, 'assign_cell');
}

const archivedConflict = (prisonerId: number) =>
  conflict(`Prisoner ${prisonerId} is archived: restore the record before changing it`);

/** Locks a prisoner's row for a write; 404 when there is none. */
async function lockPrisoner(tx: Tx, prisonerId: number) {
  const [row] = await tx.select().from(prisoners).where(eq(prisoners.prisonerId, prisonerId)).for('update');
  if (!row) throw notFound(`Prisoner ${prisonerId} not found`);
  return row;
}

/**
 * The spec's Delete (decision 042): the record leaves every list and count but is kept with its track, pairs, alerts
 * and audit. Only a prisoner out of custody (Released, Transferred) or never placed in a cell is archived (decision 102).
 * His tracker is unassigned (free for someone else; his fixes stay filed under him), his escorts end,
 * his open alerts stay open for the control room. Answers the device he wore and whether escorts ended, so the route
 * can tell the live services.
 */
export async function archivePrisoner(
  db: DbOrTx,
  who: AuditActor,
  prisonerId: number,
): Promise<{ wore: string | null; escortsEnded: number }> {
  return inPrisonerWrite(db, async (tx) => {
    const current = await lockPrisoner(tx, prisonerId);
    if (current.archivedAt) throw conflict(`Prisoner ${prisonerId} is already archived`);
    const inCustody = custodyArchiveRefusal({
      prisoner_id: prisonerId,
      first_name: current.firstName,
      last_name: current.lastName,
      status: current.status,
      cell_id: current.cellId,
    });
    if (inCustody) throw conflict(inCustody);
    const before = (await findPrisoner(tx, prisonerId))!;
    const open = await tx
      .select({ id: escorts.id })
      .from(escorts)
      .where(and(eq(escorts.prisonerId, prisonerId), isNull(escorts.endedAt)));
    for (const escort of open) await endEscort(tx, who, escort.id);
    const wore = current.trackingDeviceId;
    await tx
      .update(prisoners)
      .set({ archivedAt: new Date(), archivedBy: who.actor, trackingDeviceId: null, updatedAt: new Date() })
      .where(eq(prisoners.prisonerId, prisonerId));
    // Like any unassignment: the device's geofence states belonged to him, its next wearer starts clean.
    if (wore) await tx.delete(geofenceStates).where(eq(geofenceStates.deviceId, wore));
    const after = (await findPrisoner(tx, prisonerId))!;
    await recordAudit(tx, who, { action: 'archive', entity: 'prisoner', entityId: prisonerId, before, after });
    return { wore, escortsEnded: open.length };
  });
}

/**
 * Brings an archived prisoner back into the lists, as he was (his cell too, checked by the cell rules like any
 * placement: a cell filled since answers 409). His tracker is not given back: it may be worn by someone else now.
 */
export async function restorePrisoner(db: DbOrTx, who: AuditActor, prisonerId: number): Promise<Prisoner> {
  return inPrisonerWrite(db, async (tx) => {
    const current = await lockPrisoner(tx, prisonerId);
    if (!current.archivedAt) throw conflict(`Prisoner ${prisonerId} is not archived`);
    const before = (await findPrisoner(tx, prisonerId))!;
    // Out of custody, his record keeps its last cell as it is (decision 102); in custody, he takes his place again.
    await checkPlacement(tx, prisonerId, isOccupyingStatus(current.status) ? null : current, current, null).catch(
      (error: unknown) => {
        throw restoreRefusal(error, `${current.firstName} ${current.lastName} (#${prisonerId})`, current.cellId);
      },
    );
    await tx
      .update(prisoners)
      .set({ archivedAt: null, archivedBy: null, updatedAt: new Date() })
      .where(eq(prisoners.prisonerId, prisonerId));
    const after = (await findPrisoner(tx, prisonerId))!;
    await recordAudit(tx, who, { action: 'restore', entity: 'prisoner', entityId: prisonerId, before, after });
    return after;
  });
}

/** The way out of a restore the cell rules refuse, after the rule's sentence: he stays archived until then. */
const RESTORE_WAY_OUT: Record<string, (cell: string | null) => string> = {
  capacity: (cell) => `make room in cell ${cell} (move or release one of its occupants)`,
  sex: (cell) => `move the occupants of the other sex out of cell ${cell}`,
  keep_apart: () => 'move his keep-apart partner elsewhere, or have the pair ended',
};

function restoreRefusal(error: unknown, who: string, cellId: string | null): unknown {
  const rule = error instanceof HttpError ? (error.extra?.rule as string | undefined) : undefined;
  const wayOut = rule ? RESTORE_WAY_OUT[rule] : undefined;
  if (!wayOut) return error;
  return ruleConflict(`${(error as Error).message}. ${who} stays archived: ${wayOut(cellId)}, then restore again`, rule!);
}

/** What the Delete confirmation names: what the prisoner still has. */
export async function prisonerHoldings(db: DbOrTx, prisonerId: number): Promise<PrisonerHoldings> {
  const prisoner = await getPrisoner(db, prisonerId);
  const [openAlerts, [pairs], [activeEscorts]] = await Promise.all([
    db
      .select({ level: alerts.alertType, n: sql<number>`count(*)::int` })
      .from(alerts)
      .where(and(eq(alerts.prisonerId, prisonerId), inArray(alerts.status, ['New', 'Acknowledged'])))
      .groupBy(alerts.alertType),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(keepApartPairs)
      .where(
        and(
          isNull(keepApartPairs.endedAt),
          or(eq(keepApartPairs.prisonerA, prisonerId), eq(keepApartPairs.prisonerB, prisonerId)),
        ),
      ),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(escorts)
      .where(and(eq(escorts.prisonerId, prisonerId), isNull(escorts.endedAt))),
  ]);
  const levelCount = (level: string) => openAlerts.find((row) => row.level === level)?.n ?? 0;
  return {
    prisoner_id: prisonerId,
    status: prisoner.status,
    tracking_device_id: prisoner.tracking_device_id,
    open_alerts: { Critical: levelCount('Critical'), Warning: levelCount('Warning'), Informational: levelCount('Informational') },
    keep_apart_pairs: pairs?.n ?? 0,
    active_escorts: activeEscorts?.n ?? 0,
  };
}
