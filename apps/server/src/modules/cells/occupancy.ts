// Occupancy is derived (DECISIONS.md item 7): the prisoners assigned to a cell whose status is On Trial or
// Incarcerated. Every write that could add an occupant locks the cell row first, so concurrent writes queue.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { OCCUPYING_STATUSES } from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { cells, prisoners } from '../../db/schema';
import { badRequest, conflict } from '../../lib/http-errors';

export const occupyingStatuses = [...OCCUPYING_STATUSES] as string[];

export function isOccupying(status: string | null | undefined): boolean {
  return status != null && occupyingStatuses.includes(status);
}

/** SQL condition: this prisoner row takes a place in its cell. */
export const prisonerOccupies = () => inArray(prisoners.status, occupyingStatuses);

export async function countOccupants(db: DbOrTx, cellId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(prisoners)
    .where(and(eq(prisoners.cellId, cellId), prisonerOccupies()));
  return row?.n ?? 0;
}

/** Locks the cell row until the transaction ends (`SELECT ... FOR UPDATE`); null when there is no such cell. */
export async function lockCell(tx: Tx, cellId: string) {
  const [row] = await tx.select().from(cells).where(eq(cells.cellId, cellId)).for('update');
  return row ?? null;
}

/**
 * Makes sure one more occupant fits: locks the cell, then counts. Must run inside the write's transaction.
 * Unknown cell: 400 naming cell_id. No room: 409 "Cell X is full".
 */
export async function reservePlaceInCell(tx: Tx, cellId: string): Promise<void> {
  const cell = await lockCell(tx, cellId);
  if (!cell) throw badRequest(`cell_id: cell ${cellId} does not exist`);
  const occupants = await countOccupants(tx, cellId);
  if (occupants >= cell.capacity) throw conflict(`Cell ${cellId} is full`);
}

/** An assignment that does not add an occupant (e.g. a Released prisoner's last cell) only needs the cell to exist. */
export async function requireCellExists(db: DbOrTx, cellId: string): Promise<void> {
  const [row] = await db.select({ cellId: cells.cellId }).from(cells).where(eq(cells.cellId, cellId));
  if (!row) throw badRequest(`cell_id: cell ${cellId} does not exist`);
}
