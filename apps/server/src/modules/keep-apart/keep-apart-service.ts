// Keep-apart pairs (decisions 031 and 032): created, listed and ended (never deleted), each audited.
// A pair is never made on two prisoners who share what it forbids, unless one moves in the same step (decision 102).
// The cell rules read them inside every cell move (modules/cells/cell-rules.ts); the tracking core watches the
// active ones on live positions (tracking/keep-apart-monitor.ts), loaded through `listActivePairs`.
import { keepApartBreach, keepApartWayOut, ruleName, seesEveryBlock } from '@prison/shared';
import { prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { aliasedTable, and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type {
  KeepApartInput,
  KeepApartPair,
  KeepApartQuery,
  KeepApartReason,
  KeepApartScope,
  PendingChange,
} from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { cells, keepApartPairs, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/http-errors';
import { requestChange } from '../pending-changes/pending-change-service';
import { moveAlarms } from '../cells/move-alarms';
import { pairPlaces } from '../cells/pair-breaches';
import { assignPrisonerToCell } from '../prisoners/prisoner-service';

const a = aliasedTable(prisoners, 'pa');
const b = aliasedTable(prisoners, 'pb');

const columns = {
  id: keepApartPairs.id,
  reason: keepApartPairs.reason,
  scope: keepApartPairs.scope,
  comment: keepApartPairs.comment,
  createdAt: keepApartPairs.createdAt,
  createdBy: keepApartPairs.createdBy,
  endedAt: keepApartPairs.endedAt,
  endedBy: keepApartPairs.endedBy,
  endReason: keepApartPairs.endReason,
  aId: a.prisonerId,
  aFirst: a.firstName,
  aLast: a.lastName,
  aCell: a.cellId,
  bId: b.prisonerId,
  bFirst: b.firstName,
  bLast: b.lastName,
  bCell: b.cellId,
};

async function selectPairs(db: DbOrTx, where: SQL | undefined): Promise<KeepApartPair[]> {
  const rows = await db
    .select(columns)
    .from(keepApartPairs)
    .innerJoin(a, eq(a.prisonerId, keepApartPairs.prisonerA))
    .innerJoin(b, eq(b.prisonerId, keepApartPairs.prisonerB))
    .where(where)
    .orderBy(sql`${keepApartPairs.endedAt} is not null`, desc(keepApartPairs.createdAt), desc(keepApartPairs.id));
  return rows.map((r) => ({
    id: r.id,
    prisoner_a: { prisoner_id: r.aId, first_name: r.aFirst, last_name: r.aLast, cell_id: r.aCell },
    prisoner_b: { prisoner_id: r.bId, first_name: r.bFirst, last_name: r.bLast, cell_id: r.bCell },
    reason: r.reason as KeepApartReason,
    scope: r.scope as KeepApartScope,
    comment: r.comment,
    created_at: r.createdAt.toISOString(),
    created_by: r.createdBy,
    ended_at: r.endedAt?.toISOString() ?? null,
    ended_by: r.endedBy,
    end_reason: r.endReason,
  }));
}

const involves = (prisonerId: number) => or(eq(keepApartPairs.prisonerA, prisonerId), eq(keepApartPairs.prisonerB, prisonerId));

/** All pairs, or one prisoner's; `active=true` leaves out the ended ones. Active pairs first, newest first. */
export async function listPairs(db: DbOrTx, query: KeepApartQuery, caseload: Caseload = []): Promise<KeepApartPair[]> {
  // A caseload sees the pairs of its prisoners: the other one is named, since keeping them apart is the wing's job.
  const ofCaseload = seesEveryBlock(caseload)
    ? undefined
    : or(prisonerInCaseload(keepApartPairs.prisonerA, caseload), prisonerInCaseload(keepApartPairs.prisonerB, caseload));
  return selectPairs(
    db,
    and(
      ofCaseload,
      // One prisoner's pairs (his details, archived or not) or the list of all, which leaves archived records out.
      query.prisoner_id === undefined ? and(isNull(a.archivedAt), isNull(b.archivedAt)) : involves(query.prisoner_id),
      query.active === 'true' ? isNull(keepApartPairs.endedAt) : undefined,
      query.active === 'false' ? sql`${keepApartPairs.endedAt} is not null` : undefined,
    ),
  );
}

async function getPair(db: DbOrTx, id: number): Promise<KeepApartPair> {
  const [pair] = await selectPairs(db, eq(keepApartPairs.id, id));
  if (!pair) throw notFound(`Keep-apart pair ${id} not found`);
  return pair;
}

/** The unique index on the active pair refuses a second one made at the same moment; answered as the check would. */
function isUniqueViolation(error: unknown): boolean {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return code === '23505' || cause?.code === '23505';
}

/**
 * The move offered with a pair (decision 102): an ordinary cell move (`assign_cell`, audited, every cell rule under
 * its locks). A move that lifts an alarm waits for a second person (decision 091); the pair does not wait with it:
 * it is refused, so no pair is recorded on two prisoners who still share a cell.
 */
async function moveForPair(tx: Tx, who: AuditActor, prisonerId: number, cellId: string): Promise<void> {
  const [cell] = await tx.select({ id: cells.cellId }).from(cells).where(eq(cells.cellId, cellId));
  if (!cell) throw badRequest(`move_cell_id: cell ${cellId} does not exist`);
  const [current] = await tx
    .select({ prisoner_id: prisoners.prisonerId, first_name: prisoners.firstName, last_name: prisoners.lastName, cellId: prisoners.cellId })
    .from(prisoners)
    .where(eq(prisoners.prisonerId, prisonerId));
  if ((await moveAlarms(tx, prisonerId, current!.cellId, cellId)).changes.length > 0) {
    throw conflict(
      `Moving ${ruleName(current!)} to cell ${cellId} lifts an alarm and waits for a second person's approval: ` +
        'ask for the move in Cells first, then create the pair once he has moved',
    );
  }
  await assignPrisonerToCell(tx, who, prisonerId, cellId);
}

/** Two prisoners who share what the pair's scope forbids: refused, naming where they are and the way out. */
async function refuseBreach(tx: Tx, input: KeepApartInput): Promise<void> {
  const places = await pairPlaces(tx, [input.prisoner_a, input.prisoner_b]);
  const a = places.get(input.prisoner_a);
  const b = places.get(input.prisoner_b);
  const breach = a && b ? keepApartBreach(a, b, input.scope) : null;
  if (breach) throw conflict(`${breach}: ${keepApartWayOut(a!, input.scope)}`);
}

export async function createPair(db: DbOrTx, who: AuditActor, input: KeepApartInput): Promise<KeepApartPair> {
  const alreadyMessage = `Prisoners ${input.prisoner_a} and ${input.prisoner_b} are already kept apart`;
  try {
    return await db.transaction(async (tx) => {
      // Locked, as every cell move locks its prisoner first: a move of either made meanwhile waits for the pair (and
      // then meets it), or the breach check below reads where it put him.
      const found = await tx
        .select({ id: prisoners.prisonerId, archivedAt: prisoners.archivedAt })
        .from(prisoners)
        .where(or(eq(prisoners.prisonerId, input.prisoner_a), eq(prisoners.prisonerId, input.prisoner_b)))
        .orderBy(prisoners.prisonerId)
        .for('update');
      // Both exist before either is judged: the caseload guard answers one outside the caseload as unknown first.
      for (const field of ['prisoner_a', 'prisoner_b'] as const) {
        if (!found.some((p) => p.id === input[field])) throw badRequest(`${field}: prisoner ${input[field]} does not exist`);
      }
      for (const field of ['prisoner_a', 'prisoner_b'] as const) {
        if (found.find((p) => p.id === input[field])!.archivedAt) throw badRequest(`${field}: prisoner ${input[field]} is archived`);
      }
      const [existing] = await tx
        .select({ id: keepApartPairs.id })
        .from(keepApartPairs)
        .where(
          and(
            isNull(keepApartPairs.endedAt),
            or(
              and(eq(keepApartPairs.prisonerA, input.prisoner_a), eq(keepApartPairs.prisonerB, input.prisoner_b)),
              and(eq(keepApartPairs.prisonerA, input.prisoner_b), eq(keepApartPairs.prisonerB, input.prisoner_a)),
            ),
          ),
        );
      if (existing) throw conflict(`${alreadyMessage} (pair ${existing.id})`);
      const [row] = await tx
        .insert(keepApartPairs)
        .values({
          prisonerA: input.prisoner_a,
          prisonerB: input.prisoner_b,
          reason: input.reason,
          scope: input.scope,
          comment: input.comment || null,
          createdBy: who.actor,
        })
        .returning({ id: keepApartPairs.id });
      // The pair is in place before the move, so the move's cell rules already keep the two apart.
      if (input.move_prisoner_id !== undefined && input.move_cell_id !== undefined) {
        await moveForPair(tx, who, input.move_prisoner_id, input.move_cell_id);
      }
      await refuseBreach(tx, input);
      const pair = await getPair(tx, row!.id);
      await recordAudit(tx, who, { action: 'create', entity: 'keep_apart', entityId: pair.id, after: pair });
      return pair;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(alreadyMessage);
    throw error;
  }
}

const pairName = (pair: KeepApartPair) =>
  `${pair.prisoner_a.first_name} ${pair.prisoner_a.last_name} (#${pair.prisoner_a.prisoner_id}) and ` +
  `${pair.prisoner_b.first_name} ${pair.prisoner_b.last_name} (#${pair.prisoner_b.prisoner_id})`;

/**
 * Ending a pair stops its alarm (decision 041): it is asked with its reason and waits for a second
 * administrator's approval; the pair stays active until then. An ended pair cannot end again (409).
 */
export async function requestEndPair(
  db: DbOrTx,
  who: AuditActor,
  id: number,
  reason: string,
): Promise<{ pair: KeepApartPair; pending: PendingChange }> {
  return db.transaction(async (tx) => {
    const pair = await getPair(tx, id);
    if (pair.ended_at) throw conflict(`Keep-apart pair ${id} already ended on ${pair.ended_at}`);
    const pending = await requestChange(tx, who, {
      targetType: 'keep_apart',
      targetId: String(id),
      targetName: pairName(pair),
      kind: 'end',
      changes: [`End the keep-apart pair of ${pairName(pair)}`],
      reason,
    });
    return { pair, pending };
  });
}

/** Ends an active pair (an approved end): who, when and why are kept; an ended pair cannot end again (409). */
export async function endPair(db: DbOrTx, who: AuditActor, id: number, reason: string): Promise<KeepApartPair> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(keepApartPairs).where(eq(keepApartPairs.id, id)).for('update');
    if (!row) throw notFound(`Keep-apart pair ${id} not found`);
    if (row.endedAt) throw conflict(`Keep-apart pair ${id} already ended on ${row.endedAt.toISOString()}`);
    const before = await getPair(tx, id);
    await tx
      .update(keepApartPairs)
      .set({ endedAt: new Date(), endedBy: who.actor, endReason: reason })
      .where(eq(keepApartPairs.id, id));
    const after = await getPair(tx, id);
    await recordAudit(tx, who, { action: 'end', entity: 'keep_apart', entityId: id, before, after });
    return after;
  });
}

/** What the live monitor needs: every active pair with both prisoners' ids. */
export async function listActivePairs(db: DbOrTx): Promise<{ id: number; a: number; b: number }[]> {
  return db
    .select({ id: keepApartPairs.id, a: keepApartPairs.prisonerA, b: keepApartPairs.prisonerB })
    .from(keepApartPairs)
    .where(isNull(keepApartPairs.endedAt));
}
