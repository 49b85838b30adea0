// Roll counts (issue 24 item 2, decision 062): started for a block or the whole prison with each prisoner's line as
// his tracker places him then (kept as it was), submitted with the number counted (clear or discrepancy), and a
// discrepancy closed with a note. Each step is audited in its transaction; a caseload counts only its blocks.
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  seesEveryBlock,
  type CountLine,
  type CountStartInput,
  type CountSubmitInput,
  type LatestCount,
  type CountRecord,
} from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { cells, devices, prisoners, rollCounts } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import type { Caseload } from '../../lib/caseload';
import { conflict, forbidden, notFound } from '../../lib/http-errors';
import { blockAreaRings, checkBlockKnown } from '../block-areas/block-area-service';
import { prisonerOccupies } from '../cells/occupancy';
import { listStoredGeofences } from '../geofences/geofence-service';
import { countLineOf } from './count-lines';

type RollCountRow = typeof rollCounts.$inferSelect;

export const WHOLE_PRISON_REFUSED = 'A whole-prison count needs an account of every block';

export function toCountRecord(row: RollCountRow): CountRecord {
  const submitted = row.state !== 'open';
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
    note: row.note,
    submitted_at: row.submittedAt?.toISOString() ?? null,
    submitted_by: row.submittedBy,
    to_find: submitted && row.state !== 'clear' ? row.lines.filter((line) => line.state !== 'in_block') : [],
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

/** The officer's number: clear when it equals the expected number and every line is in its block. */
export async function submitCount(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  input: CountSubmitInput,
  caseload: Caseload,
): Promise<CountRecord> {
  return db.transaction(async (tx) => {
    const row = await findCount(tx, id, caseload, true);
    if (row.state !== 'open') throw conflict(`Count ${id} was already submitted`);
    const clear = input.counted === row.expected && row.lines.every((line) => line.state === 'in_block');
    const [updated] = await tx
      .update(rollCounts)
      .set({
        counted: input.counted,
        note: input.note || null,
        state: clear ? 'clear' : 'discrepancy',
        submittedAt: new Date(),
        submittedBy: who.actor,
      })
      .where(eq(rollCounts.id, id))
      .returning();
    const count = toCountRecord(updated!);
    await recordAudit(tx, who, {
      action: 'count.submit',
      entity: 'roll_count',
      entityId: id,
      before: { state: row.state },
      after: {
        state: count.state,
        expected: count.expected,
        counted: count.counted,
        note: count.note,
        to_find: count.to_find.map((line) => ({ prisoner_id: line.prisoner_id, name: line.name, state: line.state })),
      },
    });
    return count;
  });
}

/** A discrepancy is closed only with a note (the schema requires it); a clear or open count has nothing to close. */
export async function closeCount(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  note: string,
  caseload: Caseload,
): Promise<CountRecord> {
  return db.transaction(async (tx) => {
    const row = await findCount(tx, id, caseload, true);
    if (row.state === 'open') throw conflict(`Count ${id} must be submitted before it is closed`);
    if (row.state !== 'discrepancy') throw conflict(`Count ${id} is ${row.state}: only a discrepancy is closed`);
    const [updated] = await tx
      .update(rollCounts)
      .set({ state: 'closed', closedAt: new Date(), closedBy: who.actor, closeNote: note })
      .where(eq(rollCounts.id, id))
      .returning();
    const count = toCountRecord(updated!);
    await recordAudit(tx, who, {
      action: 'count.close',
      entity: 'roll_count',
      entityId: id,
      before: { state: row.state },
      after: { state: count.state, close_note: note },
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
