// Changes that weaken an alarm wait for a second person (decision 041). One generic table: the
// owning module asks (`requestChange`) instead of writing, and applies the stored payload when another account
// approves (`decideChange` calls the module's applier in the same transaction). Until then the old rule stays.
// The second person is a second person (decision 091): an account the requester made what it is lately cannot approve.
import { and, asc, desc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  seesEveryBlock,
  TWO_PERSON_RULE,
  type ActiveWeakening,
  type Geofence,
  type PendingChange,
  type PendingChangeDecision,
  type PendingChangeKind,
  type PendingChangeQuery,
  type PendingChangeTarget,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { accountGrants, admins, keepApartPairs, pendingChanges } from '../../db/schema';
import { prisonerInCaseloadOrTrue, type Caseload } from '../../lib/caseload';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../../lib/audit';
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
  /** A weakening that ends: reverted by itself at this time once approved. */
  until?: Date | null;
  /** What the revert writes back (the geofence as it was). */
  restore?: unknown;
}

/** Applies an approved change in the decision's transaction, as the approver. */
export type ChangeApplier = (tx: DbOrTx, approver: AuditActor, change: PendingChangeRow) => Promise<void>;

/** Reverts an approved weakening whose end time came, in the revert's transaction; answers what it did, in words. */
export type ChangeReverter = (tx: DbOrTx, change: PendingChangeRow) => Promise<string>;

export type { PendingChangeRow };

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
    until: row.until?.toISOString() ?? null,
    reverted_at: row.revertedAt?.toISOString() ?? null,
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
        until: request.until ?? null,
        restore: request.restore ?? null,
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

/** How long an account made what it is by one person cannot approve that person's changes, nor they its. */
export const GRANT_QUARANTINE_DAYS = 7;

export type GrantKind = (typeof accountGrants.$inferInsert)['kind'];

const GRANT_WORDS: Record<GrantKind, string> = {
  created: 'created',
  enabled: 're-enabled',
  role: 'given its role',
  password: 'given its password',
};

/**
 * Records who made account `adminId` what it is (created, re-enabled, given its role or password), in the write's
 * transaction. Nothing is recorded for what no account did (the command line, single sign-on): no requester is it.
 */
export async function recordAccountGrant(tx: DbOrTx, adminId: number, by: AuditActor, kind: GrantKind): Promise<void> {
  if (by.adminId === null || by.adminId === adminId) return;
  await tx.insert(accountGrants).values({ adminId, byAdminId: by.adminId, kind });
}

/**
 * Why `approver` may not decide `change` under the two-person rule, or null when they may. One person is both when
 * the approver asked, or (for an approval) when either of the two accounts was created, re-enabled, given its role or its password by
 * the other after the change was asked or within the last 7 days (a puppet account, or the puppet asking).
 */
export async function twoPersonRefusal(
  tx: DbOrTx,
  approver: AuditActor,
  change: PendingChangeRow,
  decision: PendingChangeDecision,
  now = new Date(),
): Promise<string | null> {
  if (approver.adminId === null) return `${TWO_PERSON_RULE}: only a signed-in account may decide a change`;
  if (approver.adminId === change.requestedByAdminId) return 'You asked for this change: another administrator must approve or refuse it';
  // A refusal keeps things as they are: anyone but the requester may refuse.
  if (decision === 'refused') return null;
  const requester = change.requestedByAdminId;
  if (requester !== null) {
    const since = new Date(Math.min(change.requestedAt.getTime(), now.getTime() - GRANT_QUARANTINE_DAYS * 86_400_000));
    const [grant] = await tx
      .select({ adminId: accountGrants.adminId, kind: accountGrants.kind, at: accountGrants.at })
      .from(accountGrants)
      .where(
        and(
          or(
            and(eq(accountGrants.adminId, approver.adminId), eq(accountGrants.byAdminId, requester)),
            and(eq(accountGrants.adminId, requester), eq(accountGrants.byAdminId, approver.adminId)),
          ),
          gt(accountGrants.at, since),
        ),
      )
      .orderBy(desc(accountGrants.at))
      .limit(1);
    if (grant) {
      const when = grant.at > change.requestedAt ? 'after this change was asked' : `within the last ${GRANT_QUARANTINE_DAYS} days`;
      const what = GRANT_WORDS[grant.kind];
      return grant.adminId === approver.adminId
        ? `${TWO_PERSON_RULE}: your account was ${what} by ${change.requestedBy}, who asked for this change, ${when}; ` +
            'someone else must approve or refuse it'
        : `${TWO_PERSON_RULE}: the account of ${change.requestedBy}, who asked for this change, was ${what} by you ${when}; ` +
            'someone else must approve or refuse it';
    }
  }
  if (change.targetType === 'admin') {
    // A new administrator takes effect with a second administrator who already is one: not a supervisor.
    const [account] = await tx.select({ role: admins.role, disabledAt: admins.disabledAt }).from(admins).where(eq(admins.id, approver.adminId));
    if (!account || account.role !== 'administrator' || account.disabledAt) {
      return `${TWO_PERSON_RULE}: a new or raised administrator account is approved by another, existing administrator`;
    }
  }
  return null;
}

/**
 * Approves (applying the change through `apply`) or refuses a pending change, under its row lock: two approvers at
 * once decide it once. The requester, or an account either made what it is lately, cannot decide it (403, naming the
 * two-person rule); a decided change cannot be decided again (409); a weakening whose end time passed is not approved.
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
    const refusal = await twoPersonRefusal(tx, who, row, decision);
    if (refusal) throw forbidden(refusal);
    if (decision === 'approved' && row.until && row.until.getTime() <= Date.now()) {
      throw conflict(`The end time of this change (${row.until.toISOString()}) has passed: it can only be refused, and asked again`);
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

const stillWeakened = (now: Date) =>
  and(eq(pendingChanges.decision, 'approved'), isNotNull(pendingChanges.until), isNull(pendingChanges.revertedAt), gt(pendingChanges.until, now));

/** The approved weakenings of Critical and Warning zones still in force, soonest end first (the staff banner). */
export async function listActiveWeakenings(db: DbOrTx, now = new Date()): Promise<ActiveWeakening[]> {
  const rows = await db
    .select()
    .from(pendingChanges)
    .where(
      and(
        eq(pendingChanges.targetType, 'geofence'),
        stillWeakened(now),
        // A weakened zone deleted since is the delete's weakening, listed of its own.
        or(eq(pendingChanges.kind, 'delete'), sql`exists (select 1 from geofences g where g.geofence_id = ${pendingChanges.targetId})`),
      ),
    )
    .orderBy(asc(pendingChanges.until), asc(pendingChanges.id))
    .limit(200);
  return rows.flatMap((row) => {
    const before = row.restore as Geofence | null;
    const level = before?.alert_type;
    if (level !== 'Critical' && level !== 'Warning') return [];
    return [
      {
        id: row.id,
        geofence_id: row.targetId,
        geofence_name: before!.name,
        level,
        kind: row.kind === 'delete' ? ('delete' as const) : ('update' as const),
        changes: row.changes,
        requested_by: row.requestedBy,
        approved_by: row.decidedBy ?? '',
        approved_at: (row.decidedAt ?? row.requestedAt).toISOString(),
        until: row.until!.toISOString(),
      },
    ];
  });
}

/**
 * Reverts every approved weakening whose end time has come (`now`), each in a transaction of its own under its row's
 * lock (a second process passing at once skips it), through `revert`; audited as a `revert` of the pending change by
 * the system. Answers the reverted changes.
 */
export async function revertEndedWeakenings(db: DbOrTx, revert: ChangeReverter, now = new Date()): Promise<PendingChange[]> {
  const due = await db
    .select({ id: pendingChanges.id })
    .from(pendingChanges)
    .where(and(eq(pendingChanges.decision, 'approved'), isNotNull(pendingChanges.until), isNull(pendingChanges.revertedAt), lte(pendingChanges.until, now)))
    .orderBy(asc(pendingChanges.until))
    .limit(100);
  const reverted: PendingChange[] = [];
  for (const { id } of due) {
    const change = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(pendingChanges)
        .where(and(eq(pendingChanges.id, id), isNull(pendingChanges.revertedAt)))
        .for('update', { skipLocked: true });
      if (!row) return null;
      const outcome = await revert(tx, row);
      const [done] = await tx.update(pendingChanges).set({ revertedAt: sql`now()` }).where(eq(pendingChanges.id, id)).returning();
      const after = toPendingChange(done!);
      await recordAudit(tx, SYSTEM_ACTOR, {
        action: 'revert',
        entity: 'pending_change',
        entityId: id,
        before: toPendingChange(row),
        after: { ...after, outcome },
      });
      return after;
    });
    if (change) reverted.push(change);
  }
  return reverted;
}
