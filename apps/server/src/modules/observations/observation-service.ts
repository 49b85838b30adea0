// Observation writes (decision 063): a prisoner's level (with a reason), a check (chained, never
// edited; a correction is a new row naming the old one), and the handover of a constant watch. Each is audited in its
// own transaction; a check ends the overdue alerts of the due time it answers.
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import {
  OBSERVATION_LEVEL_LABELS,
  QUICK_OBSERVATION_LEVELS,
  quickObservationText,
  type ObservationCheck,
  type ObservationCheckInput,
  type ObservationLevel,
  type ObservationLevelInput,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { alerts, observationChecks, observationHandovers, observationLevels, prisoners, staff } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { judgeCheckPosition } from './check-position';
import { hashOf, lockChainHead } from './observation-chain';
import { intervalOf, staggeredDueAt, type ObservationIntervals } from './observation-schedule';

export interface ObservationOptions {
  intervals: ObservationIntervals;
  offlineSeconds: number;
  now?: Date;
  random?: () => number;
}

type CheckRow = typeof observationChecks.$inferSelect;

export function toCheck(row: CheckRow): ObservationCheck {
  return {
    id: row.id,
    prisoner_id: row.prisonerId,
    observed: row.observed,
    checked_at: row.checkedAt.toISOString(),
    checked_by: row.checkedBy,
    staff_id: row.staffId,
    method: row.method as ObservationCheck['method'],
    verified_by_position: row.verifiedByPosition,
    distance_m: row.distanceM,
    corrects_id: row.correctsId,
    level: row.level as ObservationLevel,
    interval_minutes: row.intervalMinutes,
    due_at: row.dueAt?.toISOString() ?? null,
  };
}

/** The prisoner's row, locked: checks and level changes of one prisoner take turns. */
async function lockPrisoner(tx: DbOrTx, prisonerId: number, unknown: () => Error) {
  const [prisoner] = await tx
    .select({ id: prisoners.prisonerId, archivedAt: prisoners.archivedAt })
    .from(prisoners)
    .where(eq(prisoners.prisonerId, prisonerId))
    .for('update');
  if (!prisoner) throw unknown();
  return prisoner;
}

async function lockLevel(tx: DbOrTx, prisonerId: number) {
  const [row] = await tx.select().from(observationLevels).where(eq(observationLevels.prisonerId, prisonerId)).for('update');
  return row ?? null;
}

/** Ends (not resolves: they stay to be worked) the overdue alerts of a due time that was answered or moved. */
async function endOverdueAlerts(tx: DbOrTx, ids: (number | null)[], at: Date): Promise<number> {
  const open = ids.filter((id): id is number => id !== null);
  if (open.length === 0) return 0;
  const ended = await tx
    .update(alerts)
    .set({ endedAt: at })
    .where(and(inArray(alerts.id, open), isNull(alerts.endedAt)))
    .returning({ id: alerts.id });
  return ended.length;
}

/** Sets the level (and the prisoner's own interval, or none); the next check is due anew from the last one. */
export async function setObservationLevel(db: DbOrTx, who: AuditActor, prisonerId: number, input: ObservationLevelInput, options: ObservationOptions): Promise<{ alertsEnded: number }> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const prisoner = await lockPrisoner(tx, prisonerId, () => notFound(`Prisoner ${prisonerId} not found`));
    if (prisoner.archivedAt) throw conflict(`Prisoner ${prisonerId} is archived`);
    const before = await lockLevel(tx, prisonerId);
    const own = input.interval_minutes ?? null;
    const interval = intervalOf(options.intervals, input.level, own);
    const dueAt = staggeredDueAt(before?.lastCheckAt ?? now, interval, options.random);
    // Still overdue under the new interval: the alerts already raised stand (no second Warning for the same lapse).
    const stillOverdue = dueAt <= now && before !== null && before.dueAt <= now;
    const values = {
      level: input.level,
      intervalMinutes: own,
      reason: input.reason,
      setBy: who.actor,
      setAt: now,
      dueAt: stillOverdue ? before.dueAt : dueAt,
      ...(input.level !== 'constant' && { watcherStaffId: null, watcherSince: null }),
      ...(!stillOverdue && { warningAlertId: null, criticalAlertId: null }),
    };
    await tx
      .insert(observationLevels)
      .values({ prisonerId, ...values })
      .onConflictDoUpdate({ target: observationLevels.prisonerId, set: values });
    const alertsEnded = stillOverdue || !before ? 0 : await endOverdueAlerts(tx, [before.warningAlertId, before.criticalAlertId], now);
    await recordAudit(tx, who, {
      action: 'observation.level',
      entity: 'prisoner',
      entityId: prisonerId,
      before: before && { level: before.level, interval_minutes: before.intervalMinutes, reason: before.reason, due_at: before.dueAt.toISOString() },
      after: { level: input.level, interval_minutes: own, interval_in_force: interval, reason: input.reason, due_at: values.dueAt.toISOString() },
    });
    return { alertsEnded };
  });
}

/**
 * Records a check: what the officer saw, where from, and when the next is due (staggered). A correction
 * (`corrects_id`) is a new entry naming an earlier check of the same prisoner; it moves no due time.
 */
export async function recordCheck(db: DbOrTx, who: AuditActor, input: ObservationCheckInput, options: ObservationOptions): Promise<{ check: ObservationCheck; alertsEnded: number }> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const prisoner = await lockPrisoner(tx, input.prisoner_id, () => badRequest(`prisoner_id: prisoner ${input.prisoner_id} does not exist`));
    if (prisoner.archivedAt) throw badRequest(`prisoner_id: prisoner ${input.prisoner_id} is archived`);
    const correction = input.corrects_id ?? null;
    if (correction !== null) {
      const [original] = await tx.select({ prisonerId: observationChecks.prisonerId }).from(observationChecks).where(eq(observationChecks.id, correction));
      if (!original || original.prisonerId !== input.prisoner_id)
        throw badRequest(`corrects_id: check ${correction} is not a check of prisoner ${input.prisoner_id}`);
    }
    const state = await lockLevel(tx, input.prisoner_id);
    const level = (state?.level ?? 'standard') as ObservationLevel;
    const interval = intervalOf(options.intervals, level, state?.intervalMinutes ?? null);
    // A one-tap entry is for standard observation only: the higher levels need what was seen in words.
    if (input.quick !== undefined && !QUICK_OBSERVATION_LEVELS.includes(level))
      throw badRequest(`quick: ${OBSERVATION_LEVEL_LABELS[level]} observation needs what you saw in words (observed)`);
    const observed = input.quick !== undefined ? quickObservationText(input.quick, input.where) : input.observed!;
    const position = await judgeCheckPosition(tx, who.adminId, input.prisoner_id, now, options.offlineSeconds);
    const dueAt = correction === null ? staggeredDueAt(now, interval, options.random) : null;
    const content = {
      prisonerId: input.prisoner_id,
      observed,
      checkedAt: now,
      checkedBy: who.actor,
      staffId: position.staffId,
      method: position.method,
      verifiedByPosition: position.verifiedByPosition,
      distanceM: position.distanceM,
      correctsId: correction,
      level,
      intervalMinutes: interval,
      dueAt,
      prevHash: await lockChainHead(tx),
    };
    const [row] = await tx.insert(observationChecks).values({ ...content, hash: hashOf(content) }).returning();
    let alertsEnded = 0;
    if (dueAt !== null) {
      const schedule = { lastCheckId: row!.id, lastCheckAt: now, dueAt, warningAlertId: null, criticalAlertId: null };
      if (state) await tx.update(observationLevels).set(schedule).where(eq(observationLevels.prisonerId, input.prisoner_id));
      else await tx.insert(observationLevels).values({ prisonerId: input.prisoner_id, level, setBy: who.actor, setAt: now, ...schedule });
      alertsEnded = state ? await endOverdueAlerts(tx, [state.warningAlertId, state.criticalAlertId], now) : 0;
    }
    const check = toCheck(row!);
    await recordAudit(tx, who, { action: correction === null ? 'create' : 'correct', entity: 'observation_check', entityId: check.id, after: check });
    return { check, alertsEnded };
  });
}

/** The officer now watching a prisoner on constant observation (one at a time); the handover is kept. */
export async function handOver(db: DbOrTx, who: AuditActor, prisonerId: number, staffId: number, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await lockPrisoner(tx, prisonerId, () => notFound(`Prisoner ${prisonerId} not found`));
    const state = await lockLevel(tx, prisonerId);
    if (state?.level !== 'constant') throw conflict(`Prisoner ${prisonerId} is not on constant observation; set the level first`);
    const [member] = await tx.select({ id: staff.staffId, archivedAt: staff.archivedAt }).from(staff).where(eq(staff.staffId, staffId));
    if (!member) throw badRequest(`staff_id: staff member ${staffId} does not exist`);
    if (member.archivedAt) throw badRequest(`staff_id: staff member ${staffId} is retired`);
    if (state.watcherStaffId === staffId) throw conflict(`Staff member ${staffId} is already watching prisoner ${prisonerId}`);
    await tx.insert(observationHandovers).values({ prisonerId, staffId, previousStaffId: state.watcherStaffId, at: now, by: who.actor });
    await tx.update(observationLevels).set({ watcherStaffId: staffId, watcherSince: now }).where(eq(observationLevels.prisonerId, prisonerId));
    await recordAudit(tx, who, {
      action: 'observation.handover',
      entity: 'prisoner',
      entityId: prisonerId,
      before: { staff_id: state.watcherStaffId },
      after: { staff_id: staffId, at: now.toISOString() },
    });
  });
}

/** A prisoner's checks, newest first. */
export async function listChecks(db: DbOrTx, prisonerId: number, limit: number): Promise<ObservationCheck[]> {
  const rows = await db.select().from(observationChecks).where(eq(observationChecks.prisonerId, prisonerId)).orderBy(desc(observationChecks.id)).limit(limit);
  return rows.map(toCheck);
}
