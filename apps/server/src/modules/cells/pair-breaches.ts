// Keep-apart pairs whose two prisoners are together as the pair forbids (decision 102): one cell, or one landing or
// one block when the scope is the landing or the block. Read for the cell cards' flags (the occupancy picture) and to refuse a pair made on
// cellmates; which places breach a pair, and in which words, is `keepApartBreach` in packages/shared.
import { aliasedTable, and, eq, inArray, isNull } from 'drizzle-orm';
import { keepApartBreach, type KeepApartScope, type PairPlace } from '@prison/shared';
import type { DbOrTx } from '../../db/client';
import { cells, keepApartPairs, prisoners } from '../../db/schema';
import { blockInCaseload, type Caseload } from '../../lib/caseload';
import { occupyingStatuses, prisonerOccupies } from './occupancy';

export interface PairBreach {
  pair_id: number;
  /** Both cells where the two are (one when they share it). */
  cell_ids: string[];
  message: string;
}

const pa = aliasedTable(prisoners, 'breach_pa');
const pb = aliasedTable(prisoners, 'breach_pb');
const ca = aliasedTable(cells, 'breach_ca');
const cb = aliasedTable(cells, 'breach_cb');

/** Active pairs whose two prisoners occupy cells of one block of the caseload as the pair forbids. */
export async function listPairBreaches(db: DbOrTx, caseload: Caseload = []): Promise<PairBreach[]> {
  const rows = await db
    .select({
      id: keepApartPairs.id,
      scope: keepApartPairs.scope,
      a: { prisoner_id: pa.prisonerId, first_name: pa.firstName, last_name: pa.lastName, cell_id: ca.cellId, block: ca.block },
      b: { prisoner_id: pb.prisonerId, first_name: pb.firstName, last_name: pb.lastName, cell_id: cb.cellId, block: cb.block },
    })
    .from(keepApartPairs)
    .innerJoin(pa, eq(pa.prisonerId, keepApartPairs.prisonerA))
    .innerJoin(pb, eq(pb.prisonerId, keepApartPairs.prisonerB))
    .innerJoin(ca, eq(ca.cellId, pa.cellId))
    .innerJoin(cb, eq(cb.cellId, pb.cellId))
    .where(
      and(
        isNull(keepApartPairs.endedAt),
        eq(ca.block, cb.block),
        blockInCaseload(ca.block, caseload),
        ...[pa, pb].flatMap((p) => [inArray(p.status, occupyingStatuses), isNull(p.archivedAt)]),
      ),
    )
    .orderBy(keepApartPairs.id);
  return rows.flatMap((row) => {
    const message = keepApartBreach(row.a, row.b, row.scope as KeepApartScope);
    return message ? [{ pair_id: row.id, cell_ids: [...new Set([row.a.cell_id, row.b.cell_id])], message }] : [];
  });
}

/** Where each of these prisoners is now, for those who occupy a cell (not archived). */
export async function pairPlaces(db: DbOrTx, prisonerIds: number[]): Promise<Map<number, PairPlace>> {
  const rows = await db
    .select({
      prisoner_id: prisoners.prisonerId,
      first_name: prisoners.firstName,
      last_name: prisoners.lastName,
      cell_id: cells.cellId,
      block: cells.block,
    })
    .from(prisoners)
    .innerJoin(cells, eq(cells.cellId, prisoners.cellId))
    .where(and(inArray(prisoners.prisonerId, prisonerIds), prisonerOccupies()));
  return new Map(rows.map((row) => [row.prisoner_id, row]));
}
