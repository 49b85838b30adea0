// Reading observations (decision 063): a prisoner's level, interval in force, last check, watcher and due time, one
// query for a whole block (the due list, overdue first) or one prisoner. Everyone in custody is on the schedule
// (decision 099): the block's or the prisoner's unscheduled ones are enrolled before they are read.
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { OCCUPYING_STATUSES, type ObservationDueItem, type ObservationLevel, type ObservationStatus } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { cells, observationChecks, observationLevels, prisoners, staff } from '../../db/schema';
import { prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { activeFlagKinds, photoDigest } from '../prisoners/prisoner-repository';
import { enrolUnscheduled } from './observation-enrolment';
import { intervalOf, type ObservationIntervals } from './observation-schedule';

async function selectStatuses(db: DbOrTx, where: SQL | undefined) {
  return db
    .select({
      prisonerId: prisoners.prisonerId,
      firstName: prisoners.firstName,
      lastName: prisoners.lastName,
      prisonNumber: prisoners.prisonNumber,
      photoDigest,
      flags: activeFlagKinds,
      cellId: prisoners.cellId,
      level: observationLevels.level,
      intervalMinutes: observationLevels.intervalMinutes,
      reason: observationLevels.reason,
      dueAt: observationLevels.dueAt,
      lastCheckAt: observationLevels.lastCheckAt,
      lastCheckBy: observationChecks.checkedBy,
      lastVerified: observationChecks.verifiedByPosition,
      watcherId: staff.staffId,
      watcherName: sql<string | null>`trim(${staff.firstName} || ' ' || ${staff.lastName})`,
      watcherSince: observationLevels.watcherSince,
    })
    .from(prisoners)
    .leftJoin(cells, eq(cells.cellId, prisoners.cellId))
    .leftJoin(observationLevels, eq(observationLevels.prisonerId, prisoners.prisonerId))
    .leftJoin(observationChecks, eq(observationChecks.id, observationLevels.lastCheckId))
    .leftJoin(staff, eq(staff.staffId, observationLevels.watcherStaffId))
    .where(where)
    .orderBy(asc(prisoners.cellId), asc(prisoners.lastName), asc(prisoners.firstName));
}

type StatusRow = Awaited<ReturnType<typeof selectStatuses>>[number];

function toStatus(row: StatusRow, intervals: ObservationIntervals, now: Date): ObservationDueItem {
  const level = (row.level ?? 'standard') as ObservationLevel;
  return {
    prisoner_id: row.prisonerId,
    first_name: row.firstName,
    last_name: row.lastName,
    prison_number: row.prisonNumber,
    photo_digest: row.photoDigest,
    flags: row.flags,
    cell_id: row.cellId,
    level,
    interval_minutes: intervalOf(intervals, level, row.intervalMinutes),
    interval_overridden: row.intervalMinutes !== null,
    reason: row.reason,
    last_check_at: row.lastCheckAt?.toISOString() ?? null,
    last_check_by: row.lastCheckBy,
    last_verified_by_position: row.lastVerified,
    due_at: row.dueAt?.toISOString() ?? null,
    overdue: row.dueAt !== null && row.dueAt.getTime() <= now.getTime(),
    watcher:
      row.watcherId !== null && row.watcherSince !== null
        ? { staff_id: row.watcherId, name: row.watcherName ?? '', since: row.watcherSince.toISOString() }
        : null,
  };
}

/** One prisoner's observation (null when there is no such prisoner). */
export async function readObservation(db: DbOrTx, prisonerId: number, intervals: ObservationIntervals, now = new Date()): Promise<ObservationStatus | null> {
  await enrolUnscheduled(db, intervals, now, { prisonerId });
  const [row] = await selectStatuses(db, eq(prisoners.prisonerId, prisonerId));
  if (!row) return null;
  const { first_name: _first, last_name: _last, prison_number: _number, photo_digest: _photo, flags: _flags, cell_id: _cell, ...status } = toStatus(row, intervals, now);
  return status;
}

/** Every prisoner in custody in the block (within the caseload): overdue first, then the soonest due, then the rest. */
export async function listDue(db: DbOrTx, block: string, caseload: Caseload, intervals: ObservationIntervals, now = new Date()): Promise<ObservationDueItem[]> {
  await enrolUnscheduled(db, intervals, now, { block });
  const rows = await selectStatuses(
    db,
    and(
      eq(cells.block, block),
      isNull(prisoners.archivedAt),
      inArray(prisoners.status, [...OCCUPYING_STATUSES]),
      prisonerInCaseload(prisoners.prisonerId, caseload),
    ),
  );
  const items = rows.map((row) => toStatus(row, intervals, now));
  const dueTime = (item: ObservationDueItem) => (item.due_at === null ? Number.POSITIVE_INFINITY : Date.parse(item.due_at));
  return items.sort((a, b) => Number(b.overdue) - Number(a.overdue) || dueTime(a) - dueTime(b));
}
