// Roll counts (decisions 062 and 098): started for a block or the whole prison with each prisoner's line as his tracker
// places him then (kept as it was, as advice), submitted with the prisoners seen cell by cell (or a typed number), a
// discrepancy recounted or ended by accounting for each prisoner not seen. A prisoner seen whose tracker disagrees
// raises one Informational device-check alert per tracker and count. Each step is audited in its transaction; a
// caseload counts only its blocks.
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  COUNT_OUT_REASON_LABELS,
  seesEveryBlock,
  type CountAccount,
  type CountAccountInput,
  type CountCloseInput,
  type CountLine,
  type CountStartInput,
  type CountSubmission,
  type CountSubmitInput,
  type LatestCount,
  type CountRecord,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { cells, devices, prisoners, rollCounts } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Caseload } from '../../lib/caseload';
import { badRequest, conflict, forbidden, notFound } from '../../lib/http-errors';
import type { StoredShowAlert } from '../../cluster/alert-feed';
import type { NewAlert } from '../../tracking/ports';
import { insertAlerts, showAlertEvent } from '../alerts/alert-store';
import { blockAreaRings, checkBlockKnown } from '../block-areas/block-area-service';
import { prisonerOccupies } from '../cells/occupancy';
import { listStoredGeofences } from '../geofences/geofence-service';
import { activeFlagKinds, photoDigest } from '../prisoners/prisoner-repository';
import { countLineOf } from './count-lines';
import { agrees, lastSubmission, missingCount, rollOf, toFind, trackerMismatches } from './count-outcome';

type RollCountRow = typeof rollCounts.$inferSelect;

export const WHOLE_PRISON_REFUSED = 'A whole-prison count needs an account of every block';

export function toCountRecord(row: RollCountRow): CountRecord {
  const facts = { lines: row.lines, submissions: row.submissions, accounts: row.accounts };
  const last = lastSubmission(facts);
  return {
    id: row.id,
    block_id: row.block,
    started_at: row.startedAt.toISOString(),
    started_by: row.startedBy,
    expected: row.expected,
    located: row.located,
    blocks: row.blocks,
    lines: row.lines,
    state: row.state as CountRecord['state'],
    counted: row.counted,
    seen: last?.seen ?? null,
    submissions: row.submissions,
    note: row.note,
    submitted_at: row.submittedAt?.toISOString() ?? null,
    submitted_by: row.submittedBy,
    to_find: row.state === 'clear' ? [] : toFind(facts),
    missing: row.state === 'clear' ? 0 : missingCount(facts),
    tracker_mismatches: trackerMismatches(row.lines, last),
    accounts: row.accounts,
    roll: rollOf(facts, row.blocks.map((total) => total.block)),
    closed_at: row.closedAt?.toISOString() ?? null,
    closed_by: row.closedBy,
    close_note: row.closeNote,
  };
}

/** Every block name (from the cells), or the caseload's. */
export async function blockNames(db: DbOrTx, caseload: Caseload = []): Promise<string[]> {
  const rows = await db.selectDistinct({ block: cells.block }).from(cells).orderBy(asc(cells.block));
  const names = rows.map((row) => row.block);
  return seesEveryBlock(caseload) ? names : names.filter((name) => caseload.includes(name));
}

/** The lines of these blocks' prisoners now: the records say who is expected, the last fixes where they are. */
export async function linesOf(db: DbOrTx, blocks: string[], offlineMs: number, now: Date): Promise<CountLine[]> {
  if (blocks.length === 0) return [];
  const rows = await db
    .select({
      prisonerId: prisoners.prisonerId,
      first: prisoners.firstName,
      last: prisoners.lastName,
      prisonNumber: prisoners.prisonNumber,
      photoDigest,
      flags: activeFlagKinds,
      block: cells.block,
      cellId: cells.cellId,
      deviceId: prisoners.trackingDeviceId,
      lastFixAt: devices.lastFixAt,
      latitude: devices.lastLatitude,
      longitude: devices.lastLongitude,
    })
    .from(prisoners)
    .innerJoin(cells, eq(cells.cellId, prisoners.cellId))
    .leftJoin(devices, eq(devices.id, prisoners.trackingDeviceId))
    .where(and(inArray(cells.block, blocks), prisonerOccupies()))
    .orderBy(asc(cells.block), asc(cells.cellId), asc(prisoners.lastName), asc(prisoners.prisonerId));
  const places = { areas: await blockAreaRings(db), geofences: await listStoredGeofences(db), offlineMs, now };
  return rows.map((row) =>
    countLineOf(
      {
        ...row,
        name: `${row.first} ${row.last}`.trim(),
        deviceId: row.deviceId,
        lastFixAt: row.deviceId === null ? null : row.lastFixAt,
      },
      places,
    ),
  );
}

export interface CountOptions {
  offlineMs: number;
  now?: Date;
}

/** Starts a count of a block (or of the whole prison: every block with its expected number). */
export async function startCount(
  db: DbOrTx,
  who: AuditActor,
  input: CountStartInput,
  caseload: Caseload,
  options: CountOptions,
): Promise<CountRecord> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    let blocks: string[];
    if (input.scope !== 'prison') {
      // The schema lets through only a block or the whole prison asked for by name.
      const block = input.block_id!;
      await checkBlockKnown(tx, block, caseload);
      blocks = [block];
    } else {
      if (!seesEveryBlock(caseload)) throw forbidden(WHOLE_PRISON_REFUSED);
      blocks = await blockNames(tx);
    }
    const lines = await linesOf(tx, blocks, options.offlineMs, now);
    const totals = blocks.map((block) => {
      const own = lines.filter((line) => line.block === block);
      return { block, expected: own.length, located: own.filter((line) => line.state === 'in_block').length };
    });
    const [row] = await tx
      .insert(rollCounts)
      .values({
        block: input.block_id ?? null,
        startedAt: now,
        startedBy: who.actor,
        expected: lines.length,
        located: lines.filter((line) => line.state === 'in_block').length,
        blocks: totals,
        lines,
      })
      .returning();
    const count = toCountRecord(row!);
    await recordAudit(tx, who, {
      action: 'count.start',
      entity: 'roll_count',
      entityId: count.id,
      after: { block_id: count.block_id, expected: count.expected, located: count.located, lines: count.lines },
    });
    return count;
  });
}

/** A count the caseload may see, locked for a change when `forUpdate`; another block's count is unknown (404). */
async function findCount(db: DbOrTx, id: number, caseload: Caseload, forUpdate = false): Promise<RollCountRow> {
  const query = db.select().from(rollCounts).where(eq(rollCounts.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  const visible = row && (seesEveryBlock(caseload) || (row.block !== null && caseload.includes(row.block)));
  if (!visible) throw notFound(`Count ${id} not found`);
  return row;
}

export async function getCount(db: DbOrTx, id: number, caseload: Caseload): Promise<CountRecord> {
  return toCountRecord(await findCount(db, id, caseload));
}

export function deviceCheckMessage(line: CountLine, countId: number): string {
  return (
    `Device check: ${line.name} was seen in his cell ${line.cell_id} at roll count ${countId}, but his tracker ` +
    `${line.device_id} placed him in ${line.where ?? 'another place'}`
  );
}

/** One Informational alert per tracker that disagreed with what the officer saw, once per count (not per recount). */
async function raiseDeviceChecks(
  tx: DbOrTx,
  row: RollCountRow,
  submission: CountSubmission,
  at: Date,
): Promise<StoredShowAlert[]> {
  const flagged = new Set(
    row.submissions.flatMap((earlier) => trackerMismatches(row.lines, earlier).map((line) => line.device_id)),
  );
  const lines = trackerMismatches(row.lines, submission).filter((line) => !flagged.has(line.device_id));
  const drafts: NewAlert[] = lines.map((line) => ({
    alertType: 'Informational',
    kind: 'roll_count',
    details: deviceCheckMessage(line, row.id),
    at,
    deviceId: line.device_id,
    prisonerId: line.prisoner_id,
  }));
  const stored = await insertAlerts(tx, drafts);
  return stored.map((alert, i) =>
    showAlertEvent(alert, { prisonerName: lines[i]!.name, prisonNumber: lines[i]!.prison_number, cellId: lines[i]!.cell_id, block: lines[i]!.block }),
  );
}

/** Who was seen, checked against the roll: every id must be one of the count's prisoners (400 naming `seen`). */
function seenOnRoll(row: RollCountRow, seen: number[]): number[] {
  const onRoll = new Set(row.lines.map((line) => line.prisoner_id));
  const stranger = seen.find((id) => !onRoll.has(id));
  if (stranger !== undefined) throw badRequest(`seen: prisoner ${stranger} is not on the roll of count ${row.id}`);
  return [...new Set(seen)];
}

export interface SubmittedCount {
  count: CountRecord;
  /** The device checks raised, for the live feed once the transaction is committed. */
  raised: StoredShowAlert[];
}

/**
 * The officer's count: the prisoners seen (or a typed number). Clear when it agrees with the roll, whatever the
 * trackers say; otherwise a discrepancy. A discrepancy may be submitted again (a recount): the last one decides, every
 * one is kept. A clear or closed count is final (409).
 */
export async function submitCount(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  input: CountSubmitInput,
  caseload: Caseload,
): Promise<SubmittedCount> {
  return db.transaction(async (tx) => {
    const row = await findCount(tx, id, caseload, true);
    if (row.state !== 'open' && row.state !== 'discrepancy') throw conflict(`Count ${id} is ${row.state}: it is not counted again`);
    const now = new Date();
    const seen = input.seen === undefined ? null : seenOnRoll(row, input.seen);
    const counted = seen === null ? input.counted! : seen.length;
    const state = agrees(row.lines, { seen, counted }) ? 'clear' : 'discrepancy';
    const submission: CountSubmission = { at: now.toISOString(), by: who.actor, seen, counted, state, note: input.note || null };
    const raised = await raiseDeviceChecks(tx, row, submission, now);
    const [updated] = await tx
      .update(rollCounts)
      .set({
        counted,
        note: input.note || null,
        state,
        submittedAt: now,
        submittedBy: who.actor,
        submissions: [...row.submissions, submission],
      })
      .where(eq(rollCounts.id, id))
      .returning();
    const count = toCountRecord(updated!);
    await recordAudit(tx, who, {
      action: row.state === 'open' ? 'count.submit' : 'count.recount',
      entity: 'roll_count',
      entityId: id,
      before: { state: row.state },
      after: {
        state: count.state,
        expected: count.expected,
        counted: count.counted,
        seen: count.seen,
        note: count.note,
        missing: count.missing,
        to_find: count.to_find.map((line) => ({ prisoner_id: line.prisoner_id, name: line.name })),
        tracker_mismatches: count.tracker_mismatches.map((line) => ({
          prisoner_id: line.prisoner_id,
          device_id: line.device_id,
          where: line.where,
        })),
      },
    });
    return { count, raised };
  });
}

/** Each prisoner not seen, and only those, with a reason: anything else is refused naming the field or the prisoner. */
function accountsFor(row: RollCountRow, input: CountAccountInput[], who: AuditActor, at: Date): CountAccount[] {
  const missing = toFind({ lines: row.lines, submissions: row.submissions, accounts: row.accounts });
  const byId = new Map(missing.map((line) => [line.prisoner_id, line]));
  const given = new Set<number>();
  input.forEach((account, i) => {
    if (!byId.has(account.prisoner_id))
      throw badRequest(`accounts.${i}.prisoner_id: prisoner ${account.prisoner_id} is not one of those to find on count ${row.id}`);
    if (given.has(account.prisoner_id))
      throw badRequest(`accounts.${i}.prisoner_id: prisoner ${account.prisoner_id} is accounted for twice`);
    given.add(account.prisoner_id);
  });
  const forgotten = missing.filter((line) => !given.has(line.prisoner_id));
  if (forgotten.length > 0)
    throw conflict(
      `accounts: ${forgotten.map((line) => `${line.name} (${line.prisoner_id})`).join(', ')} not seen and not accounted for`,
    );
  return input.map((account) => {
    const line = byId.get(account.prisoner_id)!;
    return {
      prisoner_id: line.prisoner_id,
      name: line.name,
      block: line.block,
      reason: account.reason,
      note: account.note?.trim() || null,
      by: who.actor,
      at: at.toISOString(),
    };
  });
}

/**
 * A discrepancy ends by accounting for each prisoner not seen (a reason each); a note alone ends nothing (409): the
 * other way out is a recount that agrees. A typed total names nobody, so it needs a recount cell by cell.
 */
export async function closeCount(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  input: CountCloseInput,
  caseload: Caseload,
): Promise<CountRecord> {
  return db.transaction(async (tx) => {
    const row = await findCount(tx, id, caseload, true);
    if (row.state === 'open') throw conflict(`Count ${id} must be submitted before it is closed`);
    if (row.state !== 'discrepancy') throw conflict(`Count ${id} is ${row.state}: only a discrepancy is closed`);
    if ((lastSubmission(row)?.seen ?? null) === null)
      throw conflict(`Count ${id} was a typed number: nobody is named, so recount it cell by cell to find who is missing`);
    if (!input.accounts || input.accounts.length === 0) {
      const names = toFind(row).map((line) => line.name).join(', ');
      throw conflict(`Count ${id} is a discrepancy: recount until it agrees, or account for each prisoner not seen (${names})`);
    }
    const now = new Date();
    const accounts = accountsFor(row, input.accounts, who, now);
    const [updated] = await tx
      .update(rollCounts)
      .set({ state: 'closed', closedAt: now, closedBy: who.actor, closeNote: input.note ?? null, accounts })
      .where(eq(rollCounts.id, id))
      .returning();
    const count = toCountRecord(updated!);
    await recordAudit(tx, who, {
      action: 'count.close',
      entity: 'roll_count',
      entityId: id,
      before: { state: row.state },
      after: {
        state: count.state,
        close_note: count.close_note,
        accounts: accounts.map((account) => ({
          prisoner_id: account.prisoner_id,
          reason: COUNT_OUT_REASON_LABELS[account.reason],
          note: account.note,
        })),
      },
    });
    return count;
  });
}

const COUNT_HISTORY_LIMIT = 100;

/** The history, newest first: one block's, or every count the caseload sees (whole-prison ones: every block only). */
export async function listCounts(db: DbOrTx, block: string | undefined, caseload: Caseload): Promise<CountRecord[]> {
  if (block !== undefined && !seesEveryBlock(caseload) && !caseload.includes(block)) return [];
  const ofCaseload = seesEveryBlock(caseload)
    ? undefined
    : sql`${rollCounts.block} = any(${sql.param([...caseload])}::text[])`;
  const rows = await db
    .select()
    .from(rollCounts)
    .where(and(ofCaseload, block === undefined ? undefined : eq(rollCounts.block, block)))
    .orderBy(desc(rollCounts.startedAt), desc(rollCounts.id))
    .limit(COUNT_HISTORY_LIMIT);
  return rows.map(toCountRecord);
}

/** The last count of each block (the caseload's), for the overview: one statement. */
export async function latestCounts(db: DbOrTx, caseload: Caseload): Promise<LatestCount[]> {
  const blocks = await blockNames(db, caseload);
  if (blocks.length === 0) return [];
  const rows = await db
    .selectDistinctOn([rollCounts.block])
    .from(rollCounts)
    .where(inArray(rollCounts.block, blocks))
    .orderBy(rollCounts.block, desc(rollCounts.startedAt), desc(rollCounts.id));
  const byBlock = new Map(rows.map((row) => [row.block!, toCountRecord(row)]));
  return blocks.map((block) => ({ block, count: byBlock.get(block) ?? null }));
}

/** Whether a count of this block (or of the whole prison) was submitted at or after `since` (the scheduler's question). */
export async function countSubmittedSince(db: DbOrTx, block: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: rollCounts.id })
    .from(rollCounts)
    .where(
      and(
        or(eq(rollCounts.block, block), isNull(rollCounts.block)),
        sql`${rollCounts.state} <> 'open'`,
        sql`${rollCounts.submittedAt} >= ${since.toISOString()}::timestamptz`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
