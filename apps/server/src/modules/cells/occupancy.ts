// Occupancy is derived (docs/CLIENT-CONTRACT.md): the prisoners assigned to a cell whose status is On Trial or
// Incarcerated, and not archived (decision 042). Every write that could add an occupant locks the cell row first, so concurrent writes queue; the
// count itself is one of the cell rules (cell-rules.ts, decision 031).
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { OCCUPYING_STATUSES } from '@prison/shared';
import type { DbOrTx, Tx } from '../../db/client';
import { cells, prisoners } from '../../db/schema';

export const occupyingStatuses = [...OCCUPYING_STATUSES] as string[];

/** SQL condition: this prisoner row takes a place in its cell (an archived record takes none). */
export const prisonerOccupies = () => and(inArray(prisoners.status, occupyingStatuses), isNull(prisoners.archivedAt))!;

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
