// Changes that weaken an alarm wait for a second person (issue 20 part 5, decision 041). One generic table: the
// owning module asks (`requestChange`) instead of writing, and applies the stored payload when another account
// approves (`decideChange` calls the module's applier in the same transaction). Until then the old rule stays.
import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import {
  seesEveryBlock,
  type PendingChange,
  type PendingChangeDecision,
  type PendingChangeKind,
  type PendingChangeQuery,
  type PendingChangeTarget,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { keepApartPairs, pendingChanges } from '../../db/schema';
import { prisonerInCaseloadOrTrue, type Caseload } from '../../lib/caseload';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { conflict, forbidden, notFound } from '../../lib/http-errors';

type PendingChangeRow = typeof pendingChanges.$inferSelect;

export interface ChangeRequest {
  targetType: PendingChangeTarget;
  targetId: string;
  targetName: string;
  kind: PendingChangeKind;
  /** What the applier needs on approval (a geofence patch; nothing for a delete or an end). */
  payload?: unknown;
  changes: string[];
  reason: string;
}

/** Applies an approved change in the decision's transaction, as the approver. */
export type ChangeApplier = (tx: DbOrTx, approver: AuditActor, change: PendingChangeRow) => Promise<void>;

export function toPendingChange(row: PendingChangeRow): PendingChange {
  return {
    id: row.id,
    target_type: row.targetType as PendingChangeTarget,
    target_id: row.targetId,
    target_name: row.targetName,
    kind: row.kind as PendingChangeKind,
    changes: row.changes,
    reason: row.reason,
    requested_by: row.requestedBy,
    requested_by_admin_id: row.requestedByAdminId,
    requested_at: row.requestedAt.toISOString(),
    decision: (row.decision as PendingChangeDecision | null) ?? null,
    decided_by: row.decidedBy,
    decided_at: row.decidedAt?.toISOString() ?? null,
    decision_note: row.decisionNote,
  };
}

const isUniqueViolation = (error: unknown) => {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return code === '23505' || cause?.code === '23505';
};

const alreadyPending = (request: Pick<ChangeRequest, 'targetType' | 'targetId' | 'targetName'>) =>
  conflict(`A change to ${request.targetName} is already pending approval: it must be approved or refused first`);

/** Stores the request (audited, in the caller's transaction when given one). One pending change per target (409). */
export async function requestChange(db: DbOrTx, who: AuditActor, request: ChangeRequest): Promise<PendingChange> {
  const insert = async (tx: DbOrTx) => {
    const [open] = await tx
      .select({ id: pendingChanges.id })
      .from(pendingChanges)
      .where(openFor(request.targetType, request.targetId));
    if (open) throw alreadyPending(request);
    const [row] = await tx
      .insert(pendingChanges)
      .values({
        targetType: request.targetType,
        targetId: request.targetId,
        targetName: request.targetName,
        kind: request.kind,
        payload: request.payload ?? null,
        changes: request.changes,
        reason: request.reason,
        requestedByAdminId: who.adminId,
        requestedBy: who.actor,
      })
      .returning();
    const change = toPendingChange(row!);
    await recordAudit(tx, who, { action: 'request', entity: 'pending_change', entityId: change.id, after: change });
    return change;
  };
  try {
    return await db.transaction(insert);
  } catch (error) {
    // Two requests at the same moment: the partial unique index lets one through.
    if (isUniqueViolation(error)) throw alreadyPending(request);
    throw error;
  }
}

const openFor = (targetType: string, targetId: string) =>
  and(eq(pendingChanges.targetType, targetType), eq(pendingChanges.targetId, targetId), isNull(pendingChanges.decision));

/** The pending change of one target, if any. */
export async function pendingChangeFor(db: DbOrTx, targetType: PendingChangeTarget, targetId: string): Promise<PendingChange | null> {
  const [row] = await db.select().from(pendingChanges).where(openFor(targetType, targetId));
  return row ? toPendingChange(row) : null;
}

/** Pending (default), decided or all changes, newest first; at most 200 (pending changes are few, history is in the audit). */
/**
 * The changes asked for, newest first. A caseload sees a keep-apart pair's change only when one of the pair is its
 * own, as it sees the pairs (decision 051): the change names both prisoners (decision 093). Geofences are everyone's.
 */
export async function listPendingChanges(db: DbOrTx, query: PendingChangeQuery, caseload: Caseload = []): Promise<PendingChange[]> {
  const pairs = sql`(select kp.id::text from ${keepApartPairs} kp where ${prisonerInCaseloadOrTrue(sql`kp.prisoner_a`, caseload)} or ${prisonerInCaseloadOrTrue(sql`kp.prisoner_b`, caseload)})`;
  const where: (SQL | undefined)[] = [
    query.status === 'pending' ? isNull(pendingChanges.decision) : undefined,
    query.status === 'decided' ? isNotNull(pendingChanges.decision) : undefined,
    query.target_type ? eq(pendingChanges.targetType, query.target_type) : undefined,
    query.target_id ? eq(pendingChanges.targetId, query.target_id) : undefined,
    seesEveryBlock(caseload) ? undefined : sql`(${pendingChanges.targetType} <> 'keep_apart' or ${pendingChanges.targetId} in ${pairs})`,
  ];
  const rows = await db
    .select()
    .from(pendingChanges)
    .where(and(...where))
    .orderBy(desc(pendingChanges.requestedAt), desc(pendingChanges.id))
    .limit(200);
  return rows.map(toPendingChange);
}

/**
 * Who may decide: any administrator but the one who asked. Roles, when they land, narrow this to supervisors and
 * administrators here, in one place.
 */
export function mayDecide(approver: AuditActor, change: PendingChangeRow): boolean {
  return approver.adminId !== null && approver.adminId !== change.requestedByAdminId;
}

/**
 * Approves (applying the change through `apply`) or refuses a pending change, under its row lock: two approvers at
 * once decide it once. The requester cannot decide their own (403); a decided change cannot be decided again (409).
 */
export async function decideChange(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  decision: PendingChangeDecision,
  note: string | undefined,
  apply: ChangeApplier,
): Promise<PendingChange> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(pendingChanges).where(eq(pendingChanges.id, id)).for('update');
    if (!row) throw notFound(`Pending change ${id} not found`);
    if (row.decision) throw conflict(`Change ${id} was already ${row.decision} by ${row.decidedBy ?? 'someone'}`);
    if (!mayDecide(who, row)) {
      throw forbidden('You asked for this change: another administrator must approve or refuse it');
    }
    if (decision === 'approved') await apply(tx, who, row);
    const [decided] = await tx
      .update(pendingChanges)
      .set({
        decision,
        decidedByAdminId: who.adminId,
        decidedBy: who.actor,
        decidedAt: new Date(),
        decisionNote: note || null,
      })
      .where(eq(pendingChanges.id, id))
      .returning();
    const change = toPendingChange(decided!);
    await recordAudit(tx, who, {
      action: decision === 'approved' ? 'approve' : 'refuse',
      entity: 'pending_change',
      entityId: id,
      before: toPendingChange(row),
      after: change,
    });
    return change;
  });
}
