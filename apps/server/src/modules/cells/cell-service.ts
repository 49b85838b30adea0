// Cells and blocks: listing with derived occupancy, the occupancy picture, and cell create/edit/remove.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { BlockOverview, Cell, CellInput, CellUpdateInput, SecurityLevel } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { cells, prisoners } from '../../db/schema';
import { recordAudit, type AuditActor } from '../../lib/audit';
import { blockInCaseload, prisonerInCaseload, type Caseload } from '../../lib/caseload';
import { conflict, notFound } from '../../lib/http-errors';
import { prisonersChanged } from '../prisoners/prisoner-repository';
import { countOccupants, lockCell, occupyingStatuses, prisonerOccupies } from './occupancy';
import { listPairBreaches } from './pair-breaches';

// A correlated count, so a query for one block or one cell reads only its prisoners (prisoners_cell_idx).
// Written with explicit qualifiers: drizzle leaves column names unqualified inside a select list.
const currentOccupants = sql<number>`(select count(*)::int from ${prisoners} as occupant where occupant.cell_id = "cells"."cell_id" and occupant.archived_at is null and occupant.status in (${sql.join(
  occupyingStatuses.map((s) => sql`${s}`),
  sql`, `,
)}))`;

const cellColumns = {
  cell_id: cells.cellId,
  block: cells.block,
  capacity: cells.capacity,
  security_level: cells.securityLevel,
  current_occupants: currentOccupants,
};

type CellRow = { cell_id: string; block: string; capacity: number; security_level: string; current_occupants: number };

function toCell(row: CellRow): Cell {
  return {
    ...row,
    current_occupants: Number(row.current_occupants),
    security_level: row.security_level as SecurityLevel,
  };
}

export async function findCell(db: DbOrTx, cellId: string): Promise<Cell | null> {
  const [row] = await db.select(cellColumns).from(cells).where(eq(cells.cellId, cellId));
  return row ? toCell(row) : null;
}

export async function getCell(db: DbOrTx, cellId: string): Promise<Cell> {
  const found = await findCell(db, cellId);
  if (!found) throw notFound(`Cell ${cellId} not found`);
  return found;
}

/** The cells of one block; a block outside the caseload has none, as a block that does not exist (decision 093). */
export async function listCellsInBlock(db: DbOrTx, block: string, caseload: Caseload = []): Promise<Cell[]> {
  const rows = await db
    .select(cellColumns)
    .from(cells)
    .where(and(eq(cells.block, block), blockInCaseload(cells.block, caseload)))
    .orderBy(asc(cells.cellId));
  return rows.map(toCell);
}

async function listAllCells(db: DbOrTx, caseload: Caseload = []): Promise<Cell[]> {
  const rows = await db
    .select(cellColumns)
    .from(cells)
    .where(blockInCaseload(cells.block, caseload))
    .orderBy(asc(cells.block), asc(cells.cellId));
  return rows.map(toCell);
}

function sumBlocks(all: Cell[]) {
  const byBlock = new Map<string, Cell[]>();
  for (const c of all) byBlock.set(c.block, [...(byBlock.get(c.block) ?? []), c]);
  return [...byBlock.entries()].map(([block, blockCells]) => ({
    block,
    blockCells,
    capacity: blockCells.reduce((sum, c) => sum + c.capacity, 0),
    occupants: blockCells.reduce((sum, c) => sum + c.current_occupants, 0),
  }));
}

/**
 * The block names, sorted: what the spec's client lists and then asks the cells of (docs/CLIENT-CONTRACT.md); a caseload's
 * own blocks only (decision 093).
 */
export async function listBlockNames(db: DbOrTx, caseload: Caseload = []): Promise<string[]> {
  const rows = await db
    .selectDistinct({ block: cells.block })
    .from(cells)
    .where(blockInCaseload(cells.block, caseload))
    .orderBy(asc(cells.block));
  return rows.map((row) => row.block);
}

/** Each block of the caseload with its number of cells, total capacity and occupants, sorted by block name. */
export async function listBlocks(db: DbOrTx, caseload: Caseload = []) {
  return sumBlocks(await listAllCells(db, caseload)).map(({ block, blockCells, capacity, occupants }) => ({
    block,
    cells: blockCells.length,
    capacity,
    occupants,
  }));
}

/**
 * The occupancy picture: every block of the caseload, its cells, and the prisoners who occupy each cell (On Trial,
 * Incarcerated), the caseload's own prisoners only (decisions 051 and 093: another block's occupancy is not shown),
 * and the keep-apart pairs each cell breaches.
 */
export async function cellOverview(db: DbOrTx, caseload: Caseload = []): Promise<BlockOverview[]> {
  const all = await listAllCells(db, caseload);
  const occupantRows = await db
    .select({
      cell_id: prisoners.cellId,
      prisoner_id: prisoners.prisonerId,
      prison_number: prisoners.prisonNumber,
      first_name: prisoners.firstName,
      last_name: prisoners.lastName,
      status: prisoners.status,
    })
    .from(prisoners)
    .where(and(prisonerOccupies(), prisonerInCaseload(prisoners.prisonerId, caseload)))
    .orderBy(asc(prisoners.lastName), asc(prisoners.firstName), asc(prisoners.prisonerId));
  const occupantsByCell = new Map<string, BlockOverview['cells'][number]['occupants']>();
  for (const { cell_id, ...occupant } of occupantRows) {
    if (cell_id) occupantsByCell.set(cell_id, [...(occupantsByCell.get(cell_id) ?? []), occupant]);
  }
  // Both prisoners of a breach are in one block, so a caseload that sees the block sees both (decision 102).
  const breaches = await listPairBreaches(db, caseload);
  const conflictsOf = (cellId: string) =>
    breaches.filter((b) => b.cell_ids.includes(cellId)).map(({ pair_id, message }) => ({ pair_id, message }));
  return sumBlocks(all).map(({ block, blockCells, capacity, occupants }) => ({
    block,
    capacity,
    occupants,
    cells: blockCells.map((c) => ({
      ...c,
      occupants: occupantsByCell.get(c.cell_id) ?? [],
      keep_apart_conflicts: conflictsOf(c.cell_id),
    })),
  }));
}

/** The database's unique-violation code, also when drizzle wraps the driver's error. */
function isUniqueViolation(error: unknown): boolean {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return code === '23505' || cause?.code === '23505';
}

export async function createCell(db: DbOrTx, who: AuditActor, input: CellInput): Promise<Cell> {
  const taken = () => conflict(`cell_id: cell ${input.cell_id} already exists`);
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx.select({ cellId: cells.cellId }).from(cells).where(eq(cells.cellId, input.cell_id));
      if (existing) throw taken();
      await tx.insert(cells).values({
        cellId: input.cell_id,
        block: input.block,
        capacity: input.capacity,
        securityLevel: input.security_level,
      });
      const created = (await findCell(tx, input.cell_id))!;
      await recordAudit(tx, who, { action: 'create', entity: 'cell', entityId: created.cell_id, after: created });
      return created;
    });
  } catch (error) {
    // Two creations of one id at once: the primary key refuses the second; answer it as the check would.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

export async function updateCell(db: DbOrTx, who: AuditActor, cellId: string, input: CellUpdateInput): Promise<Cell> {
  return db.transaction(async (tx) => {
    // Locked, so no assignment can slip in between the count and the new capacity.
    if (!(await lockCell(tx, cellId))) throw notFound(`Cell ${cellId} not found`);
    const before = (await findCell(tx, cellId))!;
    if (input.capacity !== undefined && input.capacity < before.current_occupants) {
      throw conflict(
        `capacity: cell ${cellId} holds ${before.current_occupants} prisoners, more than ${input.capacity}`,
      );
    }
    const changes = { block: input.block, capacity: input.capacity, securityLevel: input.security_level };
    // A body that names no field changes nothing (an UPDATE with nothing to set is an error in SQL).
    if (Object.values(changes).every((value) => value === undefined)) return before;
    await tx.update(cells).set(changes).where(eq(cells.cellId, cellId));
    const after = (await findCell(tx, cellId))!;
    await recordAudit(tx, who, { action: 'update', entity: 'cell', entityId: cellId, before, after });
    return after;
  });
}

/**
 * Removes a cell that holds nobody. Released or Transferred prisoners whose record still names it (their last cell)
 * do not keep it: their cell is cleared in the same transaction, each with an audit entry that keeps the old value.
 */
export async function deleteCell(db: DbOrTx, who: AuditActor, cellId: string): Promise<void> {
  try {
    await removeEmptyCell(db, who, cellId);
  } finally {
    prisonersChanged(); // the cached list totals and page anchors (some records lost their last cell)
  }
}

async function removeEmptyCell(db: DbOrTx, who: AuditActor, cellId: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await lockCell(tx, cellId))) throw notFound(`Cell ${cellId} not found`);
    const before = (await findCell(tx, cellId))!;
    const occupants = await countOccupants(tx, cellId);
    if (occupants > 0) {
      throw conflict(`Cell ${cellId} still holds ${occupants} ${occupants === 1 ? 'prisoner' : 'prisoners'}`);
    }
    const formerOccupants = await tx
      .update(prisoners)
      .set({ cellId: null, updatedAt: new Date() })
      .where(eq(prisoners.cellId, cellId))
      .returning({ id: prisoners.prisonerId });
    for (const { id } of formerOccupants) {
      await recordAudit(tx, who, {
        action: 'clear_cell',
        entity: 'prisoner',
        entityId: id,
        before: { cell_id: cellId },
        after: { cell_id: null },
      });
    }
    await tx.delete(cells).where(eq(cells.cellId, cellId));
    await recordAudit(tx, who, { action: 'delete', entity: 'cell', entityId: cellId, before });
  });
}
